/**
 * JSON Schema's `format` for strings, as anchored patterns run by the same automaton as `pattern`.
 *
 * Each format accepts a subset of what the specification allows (and of what common validators check:
 * Python's jsonschema with its format packages, which MaskBench's labels come from), never more: a
 * string the decoder writes must pass any validator that checks the format. Where a validator is laxer
 * than the specification (jsonschema's `email` only wants an "@"), the decoder still keeps to the
 * specification's practical core, so it may refuse a string a lax validator would take, never the
 * reverse.
 *
 * Formats JSON Schema does not define (`int32`, `byte`, `password`, custom names) are annotations:
 * the specification says a validator ignores unknown formats, and so does the compiler. Defined formats
 * that cannot be enforced (`regex`, the internationalised `idn-*`, `uri-template`) are refused.
 */

const HEX = '[0-9A-Fa-f]';
const OCTET = '(?:25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])';
const IPV4 = `${OCTET}(?:\\.${OCTET}){3}`;

const H16 = `${HEX}{1,4}`;
const LS32 = `(?:${H16}:${H16}|${IPV4})`;
/** RFC 3986's IPv6address: eight groups, or fewer around one "::", the last two possibly an IPv4. */
const IPV6 = `(?:${[
  `(?:${H16}:){6}${LS32}`,
  `::(?:${H16}:){5}${LS32}`,
  `(?:${H16})?::(?:${H16}:){4}${LS32}`,
  `(?:(?:${H16}:){0,1}${H16})?::(?:${H16}:){3}${LS32}`,
  `(?:(?:${H16}:){0,2}${H16})?::(?:${H16}:){2}${LS32}`,
  `(?:(?:${H16}:){0,3}${H16})?::${H16}:${LS32}`,
  `(?:(?:${H16}:){0,4}${H16})?::${LS32}`,
  `(?:(?:${H16}:){0,5}${H16})?::${H16}`,
  `(?:(?:${H16}:){0,6}${H16})?::`,
].join('|')})`;

// Years 0001..9999 (Python's dates have no year 0), and the leap ones: divisible by 4, except
// centuries not divisible by 400.
const YEAR = '(?:[0-9]{3}[1-9]|[0-9]{2}[1-9][0-9]|[0-9][1-9][0-9]{2}|[1-9][0-9]{3})';
const LEAP_YEAR = '(?:[0-9]{2}(?:0[48]|[2468][048]|[13579][26])|(?:0[48]|[2468][048]|[13579][26])00)';
/** A calendar date: days per month, 29 February in leap years only. */
const FULL_DATE = `(?:${[
  `${YEAR}-(?:0[13578]|1[02])-(?:0[1-9]|[12][0-9]|3[01])`,
  `${YEAR}-(?:0[469]|11)-(?:0[1-9]|[12][0-9]|30)`,
  `${YEAR}-02-(?:0[1-9]|1[0-9]|2[0-8])`,
  `${LEAP_YEAR}-02-29`,
].join('|')})`;
// RFC 3339 full-time. No leap second (":60"): common validators refuse it. "z" as well as "Z", as the
// RFC allows (section 5.6, note).
const FULL_TIME =
  '(?:[01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](?:\\.[0-9]+)?(?:[Zz]|[+-](?:[01][0-9]|2[0-3]):[0-5][0-9])';

// RFC 3339 appendix A: years/months/days, then optionally hours/minutes/seconds, each unit only with
// the ones before it down to the first given; or weeks alone.
const DUR_TIME = 'T(?:[0-9]+H(?:[0-9]+M(?:[0-9]+S)?)?|[0-9]+M(?:[0-9]+S)?|[0-9]+S)';
const DUR_DATE = '(?:[0-9]+Y(?:[0-9]+M(?:[0-9]+D)?)?|[0-9]+M(?:[0-9]+D)?|[0-9]+D)';
const DURATION = `P(?:${DUR_DATE}(?:${DUR_TIME})?|${DUR_TIME}|[0-9]+W)`;

/** A DNS label (RFC 1123): letters, digits and inner hyphens, at most 63 characters. */
const LABEL = '[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?';
const HOSTNAME = `${LABEL}(?:\\.${LABEL})*\\.?`;
/** Most characters of a hostname (RFC 1035), written as a length bound beside the pattern. */
export const HOSTNAME_MAX_LENGTH = 253;

// RFC 5321 Mailbox, without quoted local parts: dot-atoms "@" a domain or an address literal.
const ATEXT = "[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]";
const DOMAIN_LABEL = '[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?';
const EMAIL = `${ATEXT}+(?:\\.${ATEXT}+)*@(?:${DOMAIN_LABEL}(?:\\.${DOMAIN_LABEL})*|\\[${IPV4}\\]|\\[IPv6:${IPV6}\\])`;

/**
 * RFC 3986 (URI) and RFC 3987 (IRI), built from the ABNF with the character sets as parameters:
 * `extra` adds the IRI's non-ASCII characters to "unreserved", `privateUse` those a query may add.
 */
function uriGrammar(extra: string, privateUse: string): { absolute: string; reference: string } {
  const unreserved = `A-Za-z0-9._~\\-${extra}`;
  const subDelims = "!$&'()*+,;=";
  const pct = `%${HEX}{2}`;
  const pchar = `(?:[${unreserved}${subDelims}:@]|${pct})`;
  const scheme = '[A-Za-z][A-Za-z0-9+.\\-]*';
  const userinfo = `(?:[${unreserved}${subDelims}:]|${pct})*`;
  const regName = `(?:[${unreserved}${subDelims}]|${pct})*`;
  const ipFuture = `v${HEX}+\\.[A-Za-z0-9._~\\-${subDelims}:]+`;
  // An IPv4 address is also a reg-name, so the host needs no separate branch for it.
  const host = `(?:\\[(?:${IPV6}|${ipFuture})\\]|${regName})`;
  const authority = `(?:${userinfo}@)?${host}(?::[0-9]*)?`;
  const segment = `${pchar}*`;
  const pathAbEmpty = `(?:/${segment})*`;
  const pathAbsolute = `/(?:${pchar}+(?:/${segment})*)?`;
  const pathRootless = `${pchar}+(?:/${segment})*`;
  const pathNoScheme = `(?:[${unreserved}${subDelims}@]|${pct})+(?:/${segment})*`;
  const query = `(?:${pchar}|[/?${privateUse}])*`;
  const fragment = `(?:${pchar}|[/?])*`;
  const tail = `(?:\\?${query})?(?:#${fragment})?`;
  const absolute = `${scheme}:(?://${authority}${pathAbEmpty}|${pathAbsolute}|${pathRootless}|)${tail}`;
  const relative = `(?://${authority}${pathAbEmpty}|${pathAbsolute}|${pathNoScheme}|)${tail}`;
  return { absolute, reference: `(?:${absolute}|${relative})` };
}

const cp = (n: number): string => String.fromCodePoint(n);
/** RFC 3987 ucschar and iprivate, as class contents (astral characters written as themselves). */
const UCSCHAR = [
  '\\u00A0-\\uD7FF\\uF900-\\uFDCF\\uFDF0-\\uFFEF',
  ...Array.from({ length: 14 }, (_, i) => `${cp((i + 1) * 0x10000)}-${cp((i + 1) * 0x10000 + 0xfffd)}`),
].join('');
const IPRIVATE = `\\uE000-\\uF8FF${cp(0xf0000)}-${cp(0xffffd)}${cp(0x100000)}-${cp(0x10fffd)}`;
const URI = uriGrammar('', '');
const IRI = uriGrammar(UCSCHAR, IPRIVATE);

const POINTER = '(?:/(?:[^/~]|~[01])*)*';

/** The pattern each enforced format stands for (anchored). */
const FORMAT_PATTERNS: Record<string, string> = {
  'date-time': `${FULL_DATE}[Tt]${FULL_TIME}`,
  date: FULL_DATE,
  time: FULL_TIME,
  duration: DURATION,
  email: EMAIL,
  hostname: HOSTNAME,
  ipv4: IPV4,
  ipv6: IPV6,
  uuid: `${HEX}{8}-${HEX}{4}-${HEX}{4}-${HEX}{4}-${HEX}{12}`,
  uri: URI.absolute,
  'uri-reference': URI.reference,
  iri: IRI.absolute,
  'iri-reference': IRI.reference,
  'json-pointer': POINTER,
  // A non-negative integer then "#" or a JSON pointer. Its digits never have a "0" before another
  // digit: that rules out leading zeros (RFC 6901bis) and also "100", which Python's jsonschema
  // refuses by a quirk of its check.
  'relative-json-pointer': `(?:0|[1-9]+0?)(?:#|${POINTER})`,
  // Draft 3 names.
  'host-name': HOSTNAME,
  'ip-address': IPV4,
};

/** Formats JSON Schema defines that no pattern can check exactly. */
const UNENFORCEABLE = new Set(['regex', 'idn-email', 'idn-hostname', 'uri-template']);

export type FormatRule =
  | { kind: 'pattern'; source: string; maxLength?: number }
  | { kind: 'annotation' }
  | { kind: 'unsupported' };

/** How the decoder treats `format: name`. */
export function formatRule(name: string): FormatRule {
  const pattern = Object.hasOwn(FORMAT_PATTERNS, name) ? FORMAT_PATTERNS[name] : undefined;
  if (pattern !== undefined) {
    const maxLength = name === 'hostname' || name === 'host-name' ? HOSTNAME_MAX_LENGTH : undefined;
    return { kind: 'pattern', source: `^(?:${pattern})$`, ...(maxLength ? { maxLength } : {}) };
  }
  return UNENFORCEABLE.has(name) ? { kind: 'unsupported' } : { kind: 'annotation' };
}
