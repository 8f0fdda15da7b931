/** The file name of the sample CSV behind 'Download template'. */
export const CONTACT_TEMPLATE_FILE_NAME = 'contact_import_template.csv';

/**
 * The import columns and two sample rows. The numbers are fictional (555-01xx) and carry their
 * country code, as the import requires; the address shows how a value with commas is quoted, the tags how a
 * contact's own tags are separated.
 */
export const CONTACT_TEMPLATE_CSV = [
  'name,number,age,gender,address,post_code,email,tags',
  'Jane Doe,+14155550123,34,female,"1 Market St, San Francisco, CA",94105,jane.doe@example.com,Newsletter;Wholesale',
  'John Smith,+12125550199,41,male,"350 Fifth Ave, New York, NY",10118,john.smith@example.com,Newsletter',
  '',
].join('\r\n');

/** A link target for the template, built on the client (no server call). */
export const CONTACT_TEMPLATE_HREF = `data:text/csv;charset=utf-8,${encodeURIComponent(CONTACT_TEMPLATE_CSV)}`;
