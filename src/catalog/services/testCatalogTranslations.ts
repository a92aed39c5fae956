/**
 * Translations of generated test products in the store's further locales: German, French and Spanish from a
 * small word list (a regional locale takes its language's: de-AT German), any other language a marked copy of
 * the English text ("[ja] Classic Cotton Shirt"), so a client can tell which locale it read. About one product in
 * eight is left untranslated in a locale, so the translation status and the fallback chain have work to show.
 */

import type { Prisma } from '../../platform/db/client';
import { translationSearchText } from './productTranslationWrites';

type Dictionary = { words: Record<string, string>; name: (adjective: string, material: string, noun: string) => string; description: (noun: string, material: string) => string };

const DICTIONARIES: Record<string, Dictionary> = {
  de: {
    words: {
      Classic: 'Klassisch', Modern: 'Modern', Vintage: 'Vintage', Rustic: 'Rustikal', Sleek: 'Schlicht', Cozy: 'Gemütlich', Bold: 'Kräftig', Soft: 'Weich',
      Urban: 'Urban', Coastal: 'Küsten', Alpine: 'Alpen', Minimal: 'Minimal',
      Cotton: 'Baumwolle', Wool: 'Wolle', Linen: 'Leinen', Leather: 'Leder', Silk: 'Seide', Denim: 'Denim', Bamboo: 'Bambus', Canvas: 'Segeltuch', Ceramic: 'Keramik', Oak: 'Eiche',
      Shirt: 'Hemd', Jacket: 'Jacke', Scarf: 'Schal', Hat: 'Hut', Bag: 'Tasche', Mug: 'Becher', Lamp: 'Lampe', Chair: 'Stuhl', Blanket: 'Decke', Sweater: 'Pullover', Backpack: 'Rucksack', Tote: 'Beutel',
      Size: 'Größe', Color: 'Farbe', Material: 'Material', Style: 'Stil',
      Black: 'Schwarz', White: 'Weiß', Navy: 'Marine', Red: 'Rot', Green: 'Grün', Sand: 'Sand', Recycled: 'Recycelt', Regular: 'Normal', Slim: 'Schmal', Relaxed: 'Locker',
    },
    name: (adjective, material, noun) => `${noun} aus ${material}, ${adjective.toLowerCase()}`,
    description: (noun, material) => `${noun} aus ${material}, für den Testkatalog erzeugt.`,
  },
  fr: {
    words: {
      Classic: 'Classique', Modern: 'Moderne', Vintage: 'Vintage', Rustic: 'Rustique', Sleek: 'Épuré', Cozy: 'Douillet', Bold: 'Audacieux', Soft: 'Doux',
      Urban: 'Urbain', Coastal: 'Côtier', Alpine: 'Alpin', Minimal: 'Minimal',
      Cotton: 'coton', Wool: 'laine', Linen: 'lin', Leather: 'cuir', Silk: 'soie', Denim: 'denim', Bamboo: 'bambou', Canvas: 'toile', Ceramic: 'céramique', Oak: 'chêne',
      Shirt: 'Chemise', Jacket: 'Veste', Scarf: 'Écharpe', Hat: 'Chapeau', Bag: 'Sac', Mug: 'Tasse', Lamp: 'Lampe', Chair: 'Chaise', Blanket: 'Couverture', Sweater: 'Pull', Backpack: 'Sac à dos', Tote: 'Cabas',
      Size: 'Taille', Color: 'Couleur', Material: 'Matière', Style: 'Coupe',
      Black: 'Noir', White: 'Blanc', Navy: 'Marine', Red: 'Rouge', Green: 'Vert', Sand: 'Sable', Recycled: 'Recyclé', Regular: 'Normale', Slim: 'Ajustée', Relaxed: 'Ample',
    },
    name: (adjective, material, noun) => `${noun} en ${material} ${adjective.toLowerCase()}`,
    description: (noun, material) => `${noun} en ${material}, créé pour le catalogue de test.`,
  },
  es: {
    words: {
      Classic: 'Clásico', Modern: 'Moderno', Vintage: 'Vintage', Rustic: 'Rústico', Sleek: 'Elegante', Cozy: 'Acogedor', Bold: 'Atrevido', Soft: 'Suave',
      Urban: 'Urbano', Coastal: 'Costero', Alpine: 'Alpino', Minimal: 'Minimalista',
      Cotton: 'algodón', Wool: 'lana', Linen: 'lino', Leather: 'cuero', Silk: 'seda', Denim: 'denim', Bamboo: 'bambú', Canvas: 'lona', Ceramic: 'cerámica', Oak: 'roble',
      Shirt: 'Camisa', Jacket: 'Chaqueta', Scarf: 'Bufanda', Hat: 'Sombrero', Bag: 'Bolso', Mug: 'Taza', Lamp: 'Lámpara', Chair: 'Silla', Blanket: 'Manta', Sweater: 'Jersey', Backpack: 'Mochila', Tote: 'Bolsa',
      Size: 'Talla', Color: 'Color', Material: 'Material', Style: 'Estilo',
      Black: 'Negro', White: 'Blanco', Navy: 'Marino', Red: 'Rojo', Green: 'Verde', Sand: 'Arena', Recycled: 'Reciclado', Regular: 'Normal', Slim: 'Entallado', Relaxed: 'Holgado',
    },
    name: (adjective, material, noun) => `${noun} de ${material} ${adjective.toLowerCase()}`,
    description: (noun, material) => `${noun} de ${material}, generado para el catálogo de prueba.`,
  },
};

/** What a generated product's text is made of. */
export interface GeneratedText {
  adjective: string;
  material: string;
  noun: string;
  options: { name: string; values: string[] }[];
}

/** Share of products left untranslated in a locale. */
const UNTRANSLATED = 0.125;

/**
 * The product's translation rows in each locale (none for a locale it is left untranslated in), drawn from
 * `chance` (the generator's translation stream, so a seed gives the same translations again and a store without
 * further locales draws nothing from it).
 */
export function generatedTranslations(
  chance: (p: number) => boolean,
  product: { id: string; storeId: string },
  text: GeneratedText,
  locales: readonly string[],
): Prisma.ProductTranslationCreateManyInput[] {
  return locales.flatMap((locale) => {
    if (chance(UNTRANSLATED)) return [];
    const dictionary = DICTIONARIES[locale.split('-')[0]];
    const word = (w: string) => (dictionary ? (dictionary.words[w] ?? w) : w);
    const name = dictionary ? dictionary.name(word(text.adjective), word(text.material), word(text.noun)) : `[${locale}] ${text.adjective} ${text.material} ${text.noun}`;
    const description = dictionary ? dictionary.description(word(text.noun), word(text.material)) : `[${locale}] A ${text.noun.toLowerCase()} made of ${text.material.toLowerCase()}.`;
    const options = Object.fromEntries(
      text.options.map((o) => [o.name, { name: dictionary ? word(o.name) : `[${locale}] ${o.name}`, values: Object.fromEntries(o.values.map((v) => [v, dictionary ? word(v) : `[${locale}] ${v}`])) }]),
    );
    return [
      {
        productId: product.id,
        storeId: product.storeId,
        mode: 'test' as const,
        locale,
        name,
        description,
        options,
        searchText: translationSearchText({ name, description, options }),
      },
    ];
  });
}
