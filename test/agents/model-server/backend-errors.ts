import type { Turn } from './script.ts';

/**
 * Error answers exactly as the backends send them (status, headers, body), for scripts.
 * `"$RESETS_AT"`/`"$RESETS_IN"` are filled in when the answer goes out (sse.ts).
 */

/** OpenAI: the plan's window is spent; waitable, it names its reset. */
export function codexUsageLimit(resetInSeconds: number): Turn {
  return {
    kind: 'error',
    status: 429,
    resetInSeconds,
    body: {
      error: {
        type: 'usage_limit_reached',
        message: 'The usage limit has been reached',
        plan_type: 'plus',
        resets_at: '$RESETS_AT',
        resets_in_seconds: '$RESETS_IN',
      },
    },
  };
}

/** OpenAI: no credit left; no reset, waiting cannot help. */
export const codexInsufficientQuota: Turn = {
  kind: 'error',
  status: 429,
  body: {
    error: {
      message: 'You exceeded your current quota, please check your plan and billing details.',
      type: 'insufficient_quota',
      param: null,
      code: 'insufficient_quota',
    },
  },
};

/** OpenAI: a throttle, with the retry-after the API sends beside it (without it Codex 0.171 does not retry). */
export const codexRateLimited: Turn = {
  kind: 'error',
  status: 429,
  headers: { 'retry-after': '1' },
  body: {
    error: {
      message:
        'Rate limit reached for gpt-5.5 in organization org-loopback on tokens per min (TPM): Limit 30000, Used 30000, Requested 1200. Please try again in 1.898s.',
      type: 'tokens',
      param: null,
      code: 'rate_limit_exceeded',
    },
  },
};

const anthropicRateLimitBody = {
  type: 'error',
  error: {
    type: 'rate_limit_error',
    message: "This request would exceed your account's rate limit. Please try again later.",
  },
};

/**
 * Anthropic, a subscription's window spent: the unified rate-limit headers (Claude Code reads them
 * only under an OAuth login and turns them into a `rate_limit_event`).
 */
export function claudeUsageLimit(resetInSeconds: number): Turn {
  return {
    kind: 'error',
    status: 429,
    resetInSeconds,
    body: anthropicRateLimitBody,
    headers: {
      'anthropic-ratelimit-unified-status': 'rejected',
      'anthropic-ratelimit-unified-reset': '$RESETS_AT',
      'anthropic-ratelimit-unified-representative-claim': 'five_hour',
      'anthropic-ratelimit-unified-5h-status': 'rejected',
      'anthropic-ratelimit-unified-5h-reset': '$RESETS_AT',
      'anthropic-ratelimit-unified-5h-utilization': '1.0',
      'anthropic-ratelimit-unified-overage-status': 'rejected',
      'anthropic-ratelimit-unified-overage-disabled-reason': 'org_level_disabled',
    },
  };
}

/** Anthropic, an API key's throttle: request-rate headers and a retry-after. */
export const claudeRateLimited: Turn = {
  kind: 'error',
  status: 429,
  body: anthropicRateLimitBody,
  headers: {
    'retry-after': '1',
    'anthropic-ratelimit-requests-limit': '50',
    'anthropic-ratelimit-requests-remaining': '0',
    'anthropic-ratelimit-requests-reset': '$RESETS_AT',
  },
};

/** Anthropic: no credit left on the API key. */
export const claudeCreditTooLow: Turn = {
  kind: 'error',
  status: 400,
  body: {
    type: 'error',
    error: {
      type: 'invalid_request_error',
      message:
        'Your credit balance is too low to access the Anthropic API. Please go to Plans & Billing to upgrade or purchase credits.',
    },
  },
};
