import {
  getCountries,
  getCountryCallingCode,
  parsePhoneNumberFromString,
  type CountryCode,
} from 'libphonenumber-js';

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

/** Shared calling codes priced as their main country (Meta prices by calling code: +1 is North America). */
const MAIN_COUNTRY: Record<string, CountryCode> = { '1': 'US', '7': 'RU', '44': 'GB' };
const COUNTRY_OF_CODE = new Map<string, CountryCode>();
for (const country of getCountries()) {
  const code = getCountryCallingCode(country);
  if (!COUNTRY_OF_CODE.has(code)) COUNTRY_OF_CODE.set(code, MAIN_COUNTRY[code] ?? country);
}

/**
 * The market of an E.164 number: its country when the number is a valid one of a country, else the country
 * of its calling code (a number in a range libphonenumber-js does not know is still priced by its code);
 * "Other" when not even a calling code is found.
 */
export function marketOfNumber(number: string): string {
  const parsed = parsePhoneNumberFromString(number);
  if (!parsed) return OTHER_MARKET;
  return marketOfCountry(parsed.country ?? COUNTRY_OF_CODE.get(parsed.countryCallingCode));
}
