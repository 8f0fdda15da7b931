/**
 * The documented rule for recipients the sandbox cannot reach: their digits end in `0000`
 * (e.g. 15550000000, 447700900000). Sends to them are accepted with 200, then fail with 131026.
 */
export function isUndeliverable(recipientDigits: string): boolean {
  return recipientDigits.endsWith('0000');
}

/**
 * +1 area codes that are not the United States': Canada and the Caribbean countries that share the North
 * American numbering plan. US territories (Puerto Rico, Guam…) have US area codes and stay US.
 */
const NON_US_AREA_CODES = new Set(
  [
    // Canada
    '204 226 236 249 250 257 263 289 306 343 354 365 367 368 382 387 403 416 418 428 431 437 438 450 460',
    '468 474 506 514 519 548 579 581 584 587 600 604 613 622 639 647 672 683 705 709 742 753 778 780 782',
    '807 819 825 867 873 879 902 905 942',
    // Bahamas, Barbados, Anguilla, Antigua, BVI, Cayman, Bermuda, Grenada, Turks and Caicos, Jamaica,
    // Montserrat, Sint Maarten, St Lucia, Dominica, St Vincent, Dominican Republic, Trinidad, St Kitts
    '242 246 264 268 284 345 441 473 649 658 876 664 721 758 767 784 809 829 849 868 869',
  ]
    .join(' ')
    .split(' '),
);

/**
 * A US number as Meta's pause of marketing templates defines it (since 2025-04-01): +1 and a US area
 * code, i.e. a +1 number whose area code is not Canadian or Caribbean.
 */
export function isUsNumber(recipientDigits: string): boolean {
  return (
    recipientDigits.length === 11 &&
    recipientDigits.startsWith('1') &&
    !NON_US_AREA_CODES.has(recipientDigits.slice(1, 4))
  );
}
