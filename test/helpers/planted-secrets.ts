/** One planted secret of each shape the redactor knows, and a text that carries them all. */
export const PLANTED = {
  openai: 'sk-proj-AbCdEf0123456789GhIjKlMn',
  openaiLegacy: 'sk-0123456789abcdefABCDEF01',
  anthropic: 'sk-ant-api03-Zyxw9876543210_vuts-rqpo',
  github: 'ghp_0123456789abcdefghijABCDEFGHIJ012345',
  githubPat: 'github_pat_11ABCDEFG0123456789_abcdefghijklmnop',
  slack: 'xoxb-123456789012-abcdefghijkl',
  awsKeyId: 'AKIAIOSFODNN7EXAMPLE',
  jwt: 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U',
  bearer: 'abcDEF123456ghiJKL',
  urlPassword: 'hunter2url',
  pairPassword: 'hunter2pair',
  jsonToken: 'tok3n-json-value',
  awsSecret: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
  envSecret: 'env-only-s3cret-value',
} as const;

export const PLANTED_TEXT = [
  `OPENAI_API_KEY=${PLANTED.openai} and ${PLANTED.openaiLegacy}`,
  `anthropic ${PLANTED.anthropic}`,
  `git push https://${PLANTED.github}@github.com/x/y ${PLANTED.githubPat}`,
  `slack ${PLANTED.slack} aws ${PLANTED.awsKeyId}`,
  `jwt ${PLANTED.jwt}`,
  `curl -H "Authorization: Bearer ${PLANTED.bearer}"`,
  `clone https://deploy:${PLANTED.urlPassword}@git.example.com/repo.git`,
  `login password=${PLANTED.pairPassword}&next=1`,
  `{"token": "${PLANTED.jsonToken}", "input_tokens": 3}`,
  `aws_secret_access_key = ${PLANTED.awsSecret}`,
  `the value ${PLANTED.envSecret} printed bare`,
].join('\n');
