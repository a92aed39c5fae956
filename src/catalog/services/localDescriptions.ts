/** The built-in description provider: templates, no network. */

import type { DescriptionBrief, DescriptionProvider, Tone } from './descriptionTypes';

/**
 * Writes descriptions from templates: deterministic (the same brief always
 * gives the same text), offline, and good enough to start from. Openings vary
 * with a hash of the product name so a catalog does not read as one sentence
 * repeated.
 */
export class LocalProvider implements DescriptionProvider {
  readonly name = 'local';
  readonly model = 'local-templates-v1';
  readonly languages = ['en', 'de'] as const;

  async generate(brief: DescriptionBrief): Promise<string> {
    const lang = brief.language === 'de' ? DE : EN;
    const pick = (options: string[]) => options[hash(brief.name) % options.length];
    const fill = (s: string) => s.replaceAll('{name}', brief.name).replaceAll('{category}', brief.category ?? '');
    const sentences: Sentence[] = [
      { text: fill(pick(brief.category ? lang.opening[brief.tone].withCategory : lang.opening[brief.tone].plain)), priority: 0 },
      ...lang.attributes(Object.entries(brief.attributes), brief.tone).map((text) => ({ text, priority: 1 })),
      ...(brief.tags.length ? [{ text: lang.tags(brief.tags, brief.tone), priority: 3 }] : []),
      { text: lang.closing[brief.tone], priority: 2 },
    ];
    return fitWords(sentences, brief.maxWords);
  }
}

interface Sentence {
  text: string;
  /** Lower goes in first when max_words forces a choice. */
  priority: number;
}

interface Language {
  opening: Record<Tone, { withCategory: string[]; plain: string[] }>;
  attributes: (entries: [string, string[]][], tone: Tone) => string[];
  tags: (tags: string[], tone: Tone) => string;
  closing: Record<Tone, string>;
}

const EN: Language = {
  opening: {
    neutral: {
      withCategory: ['{name} is a well-made addition to our {category} range.', '{name} brings practical design and reliable quality to our {category} range.'],
      plain: ['{name} is a well-made product designed for everyday use.', '{name} combines practical design with reliable quality.'],
    },
    friendly: {
      withCategory: ['Meet {name}, a favourite from our {category} collection.', 'Say hello to {name} from our {category} collection, made to make your day a little easier.'],
      plain: ['Meet {name}, made to make your day a little easier.', "Say hello to {name}, a new favourite you'll reach for again and again."],
    },
    luxury: {
      withCategory: [
        'Discover {name}, a refined piece from our {category} collection, crafted with exceptional attention to detail.',
        '{name} embodies understated elegance within our {category} collection.',
      ],
      plain: ['Discover {name}, crafted with exceptional attention to detail.', '{name} embodies understated elegance and timeless craftsmanship.'],
    },
    playful: {
      withCategory: ['Heads up: {name} just made our {category} collection a whole lot more fun!', 'Ready for something great? {name} is the star of our {category} collection!'],
      plain: ["Heads up: {name} is here, and it's a whole lot of fun!", 'Ready for something great? Say hello to {name}!'],
    },
  },
  attributes: (entries, tone) => {
    const out: string[] = [];
    const rest: string[] = [];
    for (const [key, values] of entries) {
      switch (key.toLowerCase().replace(/[\s_-]+/g, ' ').trim()) {
        case 'material':
        case 'materials':
        case 'fabric':
          out.push(`It is ${tone === 'luxury' ? 'crafted' : 'made'} from ${joinList(values, 'and')}.`);
          break;
        case 'color':
        case 'colour':
        case 'colors':
        case 'colours':
          out.push(values.length > 1 ? `Choose from ${joinList(values, 'or')}.` : `It comes in ${values[0]}.`);
          break;
        case 'size':
        case 'sizes':
          out.push(`Available in ${values.length > 1 ? 'sizes' : 'size'} ${joinList(values, 'and')}.`);
          break;
        case 'brand':
          out.push(`It is made by ${joinList(values, 'and')}.`);
          break;
        default: {
          const noun = lowerFirst(key.replace(/_/g, ' '));
          rest.push(`its ${noun} ${/[^s]s$/i.test(noun) ? 'are' : 'is'} ${joinList(values, 'and')}`);
        }
      }
    }
    // Three facts per sentence keeps long attribute lists readable.
    for (let i = 0; i < rest.length; i += 3) out.push(upperFirst(joinList(rest.slice(i, i + 3), 'and')) + '.');
    return out;
  },
  tags: (tags, tone) => {
    const list = joinList(tags, 'and');
    if (tone === 'playful') return `Perfect for ${joinList([...tags, 'everything in between'], 'and')}!`;
    if (tone === 'luxury') return `An exquisite choice for ${list}.`;
    if (tone === 'friendly') return `Perfect for ${list}.`;
    return `It is a great fit for ${list}.`;
  },
  closing: {
    neutral: 'A dependable choice that is built to last.',
    friendly: "We think you're going to love it.",
    luxury: 'A timeless addition to any collection.',
    playful: 'Go on, treat yourself!',
  },
};

const DE: Language = {
  opening: {
    neutral: {
      withCategory: ['{name} aus unserem Sortiment {category} überzeugt durch Qualität und durchdachtes Design.', '{name} ergänzt unser Sortiment {category} mit solider Verarbeitung.'],
      plain: ['{name} überzeugt durch Qualität und durchdachtes Design.', '{name} verbindet praktisches Design mit zuverlässiger Qualität.'],
    },
    friendly: {
      withCategory: ['Lerne {name} kennen, einen Liebling aus unserer Kategorie {category}.', 'Hallo {name}! Dieses Fundstück aus unserer Kategorie {category} wirst du lieben.'],
      plain: ['Lerne {name} kennen, deinen neuen Liebling für jeden Tag.', 'Hallo {name}! Dieses Fundstück wirst du lieben.'],
    },
    luxury: {
      withCategory: [
        'Entdecken Sie {name}, ein erlesenes Stück aus unserer Kollektion {category}, gefertigt mit außergewöhnlicher Liebe zum Detail.',
        '{name} verkörpert zeitlose Eleganz in unserer Kollektion {category}.',
      ],
      plain: ['Entdecken Sie {name}, gefertigt mit außergewöhnlicher Liebe zum Detail.', '{name} verkörpert zeitlose Eleganz und feinste Handwerkskunst.'],
    },
    playful: {
      withCategory: ['Aufgepasst: {name} bringt richtig Schwung in unsere Kategorie {category}!', 'Bereit für etwas Großartiges? {name} ist der Star unserer Kategorie {category}!'],
      plain: ['Aufgepasst: {name} ist da und bringt richtig Schwung!', 'Bereit für etwas Großartiges? Hier kommt {name}!'],
    },
  },
  // German product copy lists facts as "Key: value." rather than inflecting user-supplied nouns.
  attributes: (entries) => entries.map(([key, values]) => `${upperFirst(key.replace(/_/g, ' '))}: ${joinList(values, 'und')}.`),
  tags: (tags, tone) =>
    tone === 'playful' ? `Perfekt für ${joinList([...tags, 'alles dazwischen'], 'und')}!` : `Ideal für ${joinList(tags, 'und')}.`,
  closing: {
    neutral: 'Eine zuverlässige Wahl, die lange Freude bereitet.',
    friendly: 'Wir sind sicher, es wird dir gefallen.',
    luxury: 'Eine zeitlose Bereicherung für jede Sammlung.',
    playful: 'Na los, gönn dir was!',
  },
};

/** The opening always, then the most important other sentences that fit in max_words, in their original order. */
function fitWords(sentences: Sentence[], maxWords: number): string {
  const words = (s: string) => s.split(/\s+/).filter(Boolean).length;
  const [opening, ...rest] = sentences;
  if (words(opening.text) > maxWords) return opening.text.split(/\s+/).slice(0, maxWords).join(' ').replace(/[,;:.!?]?$/, '…');
  const chosen = new Set<Sentence>([opening]);
  let used = words(opening.text);
  for (const s of [...rest].sort((x, y) => x.priority - y.priority)) {
    const n = words(s.text);
    if (used + n <= maxWords) {
      chosen.add(s);
      used += n;
    }
  }
  return sentences.filter((s) => chosen.has(s)).map((s) => s.text).join(' ');
}

function joinList(items: string[], and: string): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} ${and} ${items.at(-1)}`;
}

/** "Capacity" reads as "capacity" mid-sentence; "USB ports" keeps its acronym. */
const lowerFirst = (s: string) => (s.length > 1 && s[1] === s[1].toLowerCase() ? s[0].toLowerCase() + s.slice(1) : s);
const upperFirst = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

function hash(s: string): number {
  let h = 0;
  for (const ch of s) h = (h * 31 + ch.codePointAt(0)!) >>> 0;
  return h;
}
