/** Spellings of systemd.time(7) spans, valid and not; systemd-analyze is the judge of each. */
export const SPAN_CORPUS = [
  '90s', '7min', '7 minutes', '3 days', '1h30min', '1h 30min', '2M', '1y', '500ms', '1.5h', 'infinity', ' infinity ',
  '0', '00', '45', '1.5', '1.5s', '.5s', '1.2345678s', '0.0000001s', '12.34s.56', '12.34 .56', '1 2', '5 s', '+5s',
  '1us', '1usec', '1\u00b5s', '1\u03bcs', '3msec', '1sec', '1second', '2seconds', '1minute', '1m', '1hr', '2hours', '1hour',
  '1day', '1d', '2w', '1week', '3weeks', '1month', '2months', '2.5M', '1year', '2years', '1y 2M 3w 4d 5h 6min 7s 8ms 9us',
  '59.999999s', '60s', '61.5s', '3600', '86399s', '1.999ms', '1.0001ms', '\t5min\n', '1h30', '10 s',
  // refused
  '', '   ', '5.s', '.s', '5secs', '1mo', '1Y', '1S', '1H', 'infinityx', 'soon', '5parsecs', '5x', '12.34.56', '-5s', ' -0',
  '1e3s', '0x10s', '5 fortnights', 'off', '1,5s', '+-5s', '99999999999999999999s', '18446744073709551615us', '9223372036854775807us',
  '584542y', '584541y', `1${'0'.repeat(400)}`,
];
