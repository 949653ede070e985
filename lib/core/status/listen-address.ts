/**
 * The address of `deadman run --health-listen`: `HOST:PORT`, `[IPv6]:PORT`, or a bare `PORT`
 * (loopback). Pure: parsing and the loopback test; io/health-server.ts listens on it.
 */

export interface ListenAddress {
  host: string;
  port: number;
  loopback: boolean;
}

/** The address, or one line saying what is wrong with it. */
export function parseListenAddress(text: string): ListenAddress | { problem: string } {
  const match = /^(?:(?:\[([0-9a-fA-F:.]+)\]|([^:[\]]+)):)?(\d{1,5})$/.exec(text.trim());
  const port = match ? Number(match[3]) : NaN;
  if (!match || port > 65535)
    return {
      problem: `--health-listen "${text}": give HOST:PORT (127.0.0.1:9464, [::1]:9464) or a PORT up to 65535 (0: any free one, the banner names it)`,
    };
  const host = match[1] ?? match[2] ?? '127.0.0.1';
  return { host, port, loopback: isLoopbackHost(host) };
}

/** 127.0.0.0/8, ::1 and localhost: only this machine (or this pod) can reach them. */
export function isLoopbackHost(host: string): boolean {
  const h = host.toLowerCase();
  return (
    h === 'localhost' ||
    h === '::1' ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h) ||
    /^::ffff:127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h)
  );
}
