/**
 * Meta does not deliver marketing templates to US numbers (since 2025-04-01, decision 026): +1 numbers with
 * a US area code. These +1 area codes are not the United States' but Canada's and the Caribbean countries'
 * that share the North American numbering plan; US territories (Puerto Rico, Guam…) have US area codes.
 */
export const NON_US_AREA_CODES: readonly string[] = [
  // Canada
  '204 226 236 249 250 257 263 289 306 343 354 365 367 368 382 387 403 416 418 428 431 437 438 450 460',
  '468 474 506 514 519 548 579 581 584 587 600 604 613 622 639 647 672 683 705 709 742 753 778 780 782',
  '807 819 825 867 873 879 902 905 942',
  // Bahamas, Barbados, Anguilla, Antigua, BVI, Cayman, Bermuda, Grenada, Turks and Caicos, Jamaica,
  // Montserrat, Sint Maarten, St Lucia, Dominica, St Vincent, Dominican Republic, Trinidad, St Kitts
  '242 246 264 268 284 345 441 473 649 658 876 664 721 758 767 784 809 829 849 868 869',
]
  .join(' ')
  .split(' ');

/**
 * Whether numbers beginning with this prefix ('+1' and an area code: a number's first five characters) are US
 * numbers when they are whole: what decides isUsNumber once the number's length is right.
 */
export function isUsPrefix(prefix: string): boolean {
  return /^\+1\d{3}$/.test(prefix) && !NON_US_AREA_CODES.includes(prefix.slice(2, 5));
}

/** Whether an E.164 number (+15551234567) is a US number in Meta's sense: +1 and a US area code. */
export function isUsNumber(e164: string): boolean {
  return /^\+1\d{10}$/.test(e164) && isUsPrefix(e164.slice(0, 5));
}
