// The demo catalogue `npm run seed` defines: enough for the README's first order (SKU-1 at 19.99 EUR)
// and for trying the catalogue routes. Data only; the seed writes it through the write side.
import type { ProductContent } from '../write-side/catalogue/types.js';

export const DEMO_CATALOGUE: Readonly<Record<string, ProductContent>> = {
  'SKU-1': { name: 'Blue mug', description: 'Stoneware, 350 ml', prices: { EUR: 1999, USD: 2199 }, status: 'active' },
  'SKU-2': { name: 'Green teapot', description: 'Cast iron, 0.8 l', prices: { EUR: 3499, USD: 3799 }, status: 'active' },
  'SKU-3': { name: 'Espresso cups', description: 'Porcelain, set of two', prices: { EUR: 1299, USD: 1399 }, status: 'active' },
  'SKU-4': { name: 'Tea towel', description: 'Linen, 50 × 70 cm', prices: { EUR: 899, USD: 999 }, status: 'active' },
};
