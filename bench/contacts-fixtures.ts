// The generated contacts CSV of bench/contacts.bench.ts: deterministic, every row valid, every number unique.
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';

export const FIRST_NAMES = [
  'Olivia',
  'Liam',
  'Emma',
  'Noah',
  'Amelia',
  'Oliver',
  'Ava',
  'Elijah',
  'Sophia',
  'Mateo',
  'Isabella',
  'Lucas',
  'Mia',
  'Levi',
  'Charlotte',
  'Asher',
  'Harper',
  'James',
  'Evelyn',
  'Leo',
  'Luna',
  'Grayson',
  'Camila',
  'Ezra',
  'Gianna',
  'Luca',
  'Elizabeth',
  'Ethan',
  'Eleanor',
  'Aiden',
  'Ella',
  'Wyatt',
  'Abigail',
  'Sebastian',
  'Sofia',
  'Benjamin',
  'Avery',
  'Mason',
  'Scarlett',
  'Henry',
  'Emily',
  'Hudson',
  'Aria',
  'Jack',
  'Penelope',
  'Jackson',
  'Chloe',
  'Owen',
  'Layla',
  'Daniel',
  'Mila',
  'Alexander',
  'Nora',
  'Maverick',
  'Hazel',
  'Kai',
  'Madison',
  'Gabriel',
  'Ellie',
  'Carter',
  'Lily',
  'William',
  'Nova',
  'Logan',
  'Isla',
  'Michael',
  'Grace',
  'Samuel',
  'Violet',
  'Muhammad',
  'Aurora',
  'Waylon',
  'Riley',
  'Ezekiel',
  'Zoey',
  'Jayden',
  'Willow',
  'Luke',
  'Emilia',
  'Lincoln',
  'Stella',
  'Theo',
  'Zoe',
  'Jacob',
  'Victoria',
  'Josiah',
  'Hannah',
  'David',
  'Addison',
  'Jaxon',
  'Leah',
  'Elias',
  'Lucy',
  'Julian',
  'Eliana',
  'Theodore',
  'Ivy',
  'Isaiah',
  'Everly',
  'Priya',
];
export const LAST_NAMES = [
  'Smith',
  'Johnson',
  'Williams',
  'Brown',
  'Jones',
  'Garcia',
  'Miller',
  'Davis',
  'Rodriguez',
  'Martinez',
  'Hernandez',
  'Lopez',
  'Gonzalez',
  'Wilson',
  'Anderson',
  'Thomas',
  'Taylor',
  'Moore',
  'Jackson',
  'Martin',
  'Lee',
  'Perez',
  'Thompson',
  'White',
  'Harris',
  'Sanchez',
  'Clark',
  'Ramirez',
  'Lewis',
  'Robinson',
  'Walker',
  'Young',
  'Allen',
  'King',
  'Wright',
  'Scott',
  'Torres',
  'Nguyen',
  'Hill',
  'Flores',
  'Green',
  'Adams',
  'Nelson',
  'Baker',
  'Hall',
  'Rivera',
  'Campbell',
  'Mitchell',
  'Carter',
  'Roberts',
  'Gomez',
  'Phillips',
  'Evans',
  'Turner',
  'Diaz',
  'Parker',
  'Cruz',
  'Edwards',
  'Collins',
  'Reyes',
  'Stewart',
  'Morris',
  'Morales',
  'Murphy',
  'Cook',
  'Rogers',
  'Gutierrez',
  'Ortiz',
  'Morgan',
  'Cooper',
  'Peterson',
  'Bailey',
  'Reed',
  'Kelly',
  'Howard',
  'Ramos',
  'Kim',
  'Cox',
  'Ward',
  'Richardson',
  'Watson',
  'Brooks',
  'Chavez',
  'Wood',
  'James',
  'Bennett',
  'Gray',
  'Mendoza',
  'Ruiz',
  'Hughes',
  'Price',
  'Alvarez',
  'Castillo',
  'Sanders',
  'Patel',
  'Myers',
  'Long',
  'Ross',
  'Foster',
  'Okafor',
];
const STREETS = ['Main', 'Oak', 'Pine', 'Maple', 'Cedar', 'Elm', 'Lake', 'Hill', 'Park', 'River'];
const CITIES = ['Springfield', 'Riverside', 'Franklin', 'Greenville', 'Bristol', 'Madison', 'Salem'];
const DOMAINS = ['example.com', 'mail.test', 'inbox.test', 'post.example', 'herald.test'];
const GENDERS = ['female', 'male', 'other', ''];
const US_AREAS = ['201', '212', '305', '312', '404', '415', '512', '617', '646', '702', '718', '818'];

/** The i-th number (0-based): unique for i below 12 × 8,000,000, mixing US, UK and Indian mobiles. */
export function benchNumber(i: number): string {
  const kind = i % 4;
  const k = Math.floor(i / 4);
  if (kind === 0 || kind === 1) {
    const j = k * 2 + kind;
    const area = US_AREAS[j % US_AREAS.length]!;
    const rest = 2_000_000 + ((Math.floor(j / US_AREAS.length) * 7_919) % 8_000_000);
    return `+1${area}${rest}`;
  }
  if (kind === 2) return `+447${800_000_000 + ((k * 7_919) % 99_999_999)}`;
  return `+91${9_000_000_000 + ((k * 7_919) % 999_999_999)}`;
}

export function benchRow(i: number): string {
  const first = FIRST_NAMES[i % FIRST_NAMES.length]!;
  const last = LAST_NAMES[Math.floor(i / FIRST_NAMES.length) % LAST_NAMES.length]!;
  const email = `${first}.${last}${i}@${DOMAINS[i % DOMAINS.length]}`.toLowerCase();
  const address = `"${(i % 900) + 100} ${STREETS[i % STREETS.length]} St, ${CITIES[i % CITIES.length]}"`;
  return `${first} ${last},${benchNumber(i)},${18 + (i % 60)},${GENDERS[i % GENDERS.length]},${address},${10_000 + (i % 89_999)},${email}\n`;
}

export const CSV_HEADER = 'name,number,age,gender,address,post_code,email\n';

/** Writes `rows` generated rows (with the header) to `path`; answers its size in bytes. */
export async function writeContactsCsv(path: string, rows: number): Promise<number> {
  const out = createWriteStream(path);
  let bytes = 0;
  let batch = CSV_HEADER;
  for (let i = 0; i < rows; i += 1) {
    batch += benchRow(i);
    if (batch.length > 1 << 16 || i === rows - 1) {
      bytes += Buffer.byteLength(batch);
      if (!out.write(batch)) await once(out, 'drain');
      batch = '';
    }
  }
  out.end();
  await once(out, 'finish');
  return bytes;
}
