import { openSync, writeSync } from 'node:fs';
import { userInfo } from 'node:os';
import { createInterface } from 'node:readline';
import { ReadStream } from 'node:tty';

/**
 * Asks a person on the terminal before `deadman check --fix` changes anything. The question
 * goes to the controlling terminal (/dev/tty), so it works even when stdout is piped; when
 * there is none but stdin is a terminal, stdin is read and the question goes to stderr. With
 * no terminal at all there is nobody to ask, and the caller refuses (unless --yes).
 */

export interface TerminalPrompt {
  /** Writes the question and reads one line; only "y" or "yes" approves, end of input refuses. */
  confirm(question: string): Promise<boolean>;
  close(): void;
}

export function openTerminalPrompt(): TerminalPrompt | null {
  const tty = openControllingTerminal();
  if (tty !== null) {
    const input = new ReadStream(tty);
    return linePrompt(
      input,
      (text) => writeSync(tty, text),
      () => input.destroy(),
    );
  }
  if (process.stdin.isTTY)
    return linePrompt(
      process.stdin,
      (text) => process.stderr.write(text),
      () => process.stdin.pause(),
    );
  return null;
}

function openControllingTerminal(): number | null {
  try {
    return openSync('/dev/tty', 'r+');
  } catch {
    return null; // ENXIO: this process has no controlling terminal (a service, a pipeline under setsid).
  }
}

function linePrompt(input: NodeJS.ReadableStream, write: (text: string) => void, release: () => void): TerminalPrompt {
  const reader = createInterface({ input, terminal: false });
  const lines = reader[Symbol.asyncIterator]();
  return {
    async confirm(question) {
      write(question);
      const answer = await lines.next();
      return !answer.done && /^\s*y(es)?\s*$/i.test(answer.value);
    },
    close() {
      reader.close();
      release();
    },
  };
}

/** Who approved or refused, for the decision record: `alice (uid 1000)`, plus the sudo caller. */
export function currentOperator(env: NodeJS.ProcessEnv = process.env): string {
  const { username, uid } = userInfo();
  return env.SUDO_USER ? `${username} (uid ${uid}, sudo from ${env.SUDO_USER})` : `${username} (uid ${uid})`;
}
