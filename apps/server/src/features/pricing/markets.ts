import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js';
import metadata from 'libphonenumber-js/min/metadata';

/**
 * Meta's pricing markets (decision 048): countries with their own rates, regions ("Rest of …") for the rest
 * Meta lists, and "Other" for every country in none of them. Meta prices by the recipient's country calling
 * code; a country is found here from the number as libphonenumber-js reads it.
 */
const OWN_MARKETS: Record<string, string> = {
  AR: 'Argentina',
  BR: 'Brazil',
  CL: 'Chile',
  CO: 'Colombia',
  EG: 'Egypt',
  FR: 'France',
  DE: 'Germany',
  IN: 'India',
  ID: 'Indonesia',
  IL: 'Israel',
  IT: 'Italy',
  MY: 'Malaysia',
  MX: 'Mexico',
  NL: 'Netherlands',
  NG: 'Nigeria',
  PK: 'Pakistan',
  PE: 'Peru',
  RU: 'Russia',
  SA: 'Saudi Arabia',
  ZA: 'South Africa',
  ES: 'Spain',
  TR: 'Turkey',
  AE: 'United Arab Emirates',
  GB: 'United Kingdom',
  US: 'North America',
  CA: 'North America',
};

/** Meta's regional markets, by the countries its rate card lists for each. */
const REGIONS: Record<string, string> = {
  'Rest of Africa':
    'DZ AO BJ BW BF BI CM TD CG ER ET GA GM GH GW CI KE LS LR LY MG MW ML MR MA MZ NA NE RW SN SL SO SS SD SZ TZ TG TN UG ZM',
  'Rest of Asia Pacific': 'AF AU BD KH CN HK JP LA MN NP NZ PG PH SG LK TW TJ TH TM UZ VN',
  'Rest of Central & Eastern Europe': 'AL AM AZ BY BG HR CZ EE GE GR HU LV LT MK MD PL RO RS SK SI UA',
  'Rest of Latin America': 'BO CR DO EC SV GT HT HN JM NI PA PY PR UY VE',
  'Rest of Middle East': 'BH IQ JO KW LB OM QA YE',
  'Rest of Western Europe': 'AT BE DK FI IE NO PT SE CH',
};

const MARKET_OF_COUNTRY = new Map<string, string>(Object.entries(OWN_MARKETS));
for (const [market, countries] of Object.entries(REGIONS)) {
  for (const country of countries.split(' ')) MARKET_OF_COUNTRY.set(country, market);
}

export const OTHER_MARKET = 'Other';

/** Every market name a rate card must price. */
export const MARKETS: readonly string[] = [
  ...new Set([...Object.values(OWN_MARKETS), ...Object.keys(REGIONS), OTHER_MARKET]),
];

/** The market of a country (ISO 3166 alpha-2); "Other" for one Meta lists nowhere. */
export function marketOfCountry(country: CountryCode | string | undefined): string {
  return (country && MARKET_OF_COUNTRY.get(country)) || OTHER_MARKET;
}

/** Each calling code's main country, as libphonenumber-js's metadata lists it first (+1 US, +44 GB, +358 FI). */
const COUNTRY_OF_CODE = new Map<string, CountryCode>(
  Object.entries(metadata.country_calling_codes).map(([code, countries]) => [
    code,
    countries[0] as CountryCode,
  ]),
);

/**
 * The market of an E.164 number. Meta prices by country calling code, so a code shared by several countries is
 * priced as its main one (+44 07911 is Guernsey to libphonenumber-js, the United Kingdom to Meta), except +1 and
 * +7, where the number's own country tells North America from the Caribbean and Russia from Kazakhstan. A
 * number libphonenumber-js places in no country is priced by its code; "Other" when not even a code is found.
 */
export function marketOfNumber(number: string): string {
  const parsed = parsePhoneNumberFromString(number);
  if (!parsed) return OTHER_MARKET;
  const code = parsed.countryCallingCode;
  const byCode = COUNTRY_OF_CODE.get(code);
  return marketOfCountry(code === '1' || code === '7' ? (parsed.country ?? byCode) : byCode);
}

/**
 * Every market by number prefix, for telling a number's market in SQL: '+' and the calling code for each code
 * but +1 and +7, where the market depends on the number's own country, so by area code ('+1' and three digits)
 * and by '+7' and one digit (Kazakhstan's numbers start +76 and +77). Each prefix's market is marketOfNumber's
 * for a valid-looking number under it; a number under no prefix is "Other". Prefixes are free of each other:
 * a number starts with at most one.
 */
export const MARKET_OF_PREFIX: ReadonlyMap<string, string> = (() => {
  const map = new Map<string, string>();
  for (const code of COUNTRY_OF_CODE.keys()) {
    if (code === '1') {
      for (let area = 200; area <= 999; area += 1) map.set(`+1${area}`, marketOfNumber(`+1${area}2345678`));
    } else if (code === '7') {
      for (let digit = 0; digit <= 9; digit += 1)
        map.set(`+7${digit}`, marketOfNumber(`+7${digit}012345678`));
    } else {
      map.set(`+${code}`, marketOfCountry(COUNTRY_OF_CODE.get(code)));
    }
  }
  return map;
})();

/** The market of a number by MARKET_OF_PREFIX: what a segment's country rule reads in SQL. */
export function marketOfPrefix(number: string): string {
  for (let length = 2; length <= 5; length += 1) {
    const market = MARKET_OF_PREFIX.get(number.slice(0, length));
    if (market) return market;
  }
  return OTHER_MARKET;
}
