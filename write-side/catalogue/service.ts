// The catalogue's use cases: define, replace, patch and retire products (staff only: the catalogue
// belongs to no single customer), read one as it is now, and price order lines from it. Products
// are folded from their streams and kept (kept-folds.ts), so pricing a placement reads the store
// only for what changed since.
import { isStaff, type Viewer } from '../kernel/access.js';
import { CommandHandler, type CommandResult } from '../kernel/command-handler.js';
import { Forbidden, PriceChanged, ProductUnavailable, type CurrentPrice, type FieldError } from '../kernel/errors.js';
import type { EventStore, Position, RecordedEvent } from '../kernel/event-store.js';
import { KeptFolds } from '../kernel/kept-folds.js';
import { decodeProductEvent, encodeProductEvent, productStream } from './codec.js';
import { lowStockThresholdOf, productDecider } from './decider.js';
import { isLive, type LiveProduct, type Product, type ProductCommand, type ProductContent, type ProductEvent, type ProductPatch } from './types.js';
import type { CataloguedLine, LineInput } from '../orders/types.js';

export type ProductResult = CommandResult<Product, ProductEvent>;

/** A product's stream folded: its state (retired included) with the revision and position of its last event. */
export interface ProductSnapshot {
  readonly product: Product;
  readonly revision: number;
  readonly position: Position;
}

/** A live product as a read finds it. */
export interface CurrentProduct extends ProductSnapshot {
  readonly product: LiveProduct;
}

export interface ProductServiceOptions {
  readonly clock?: () => Date;
  /** How many products' folds are kept between reads. */
  readonly keptProducts?: number;
}

/** The request a write belongs to, and the revision it may pin (If-Match). */
export interface ProductWriteContext {
  readonly correlationId: string;
  readonly causationId?: string | null;
  readonly expectedRevision?: number;
}

export class ProductService {
  private readonly handler: CommandHandler<Product, ProductCommand, ProductEvent>;
  private readonly clock: () => Date;
  private readonly folded: KeptFolds<ProductSnapshot>;

  constructor(store: EventStore, options: ProductServiceOptions = {}) {
    this.handler = new CommandHandler(store, productDecider, { encode: encodeProductEvent, decode: decodeProductEvent });
    this.clock = options.clock ?? (() => new Date());
    this.folded = new KeptFolds(store, {
      fold,
      revisionOf: (snapshot) => snapshot.revision,
      weigh: () => 1,
      minWeight: 1,
      budget: options.keptProducts ?? 100_000,
    });
  }

  /**
   * PUT: creates the product (again, after a retirement) or replaces it; `onlyIfAbsent` is
   * If-None-Match: *; `keepThreshold`, the product's threshold stays when `product` leaves it out.
   */
  put(viewer: Viewer, sku: string, product: ProductContent, context: ProductWriteContext & { onlyIfAbsent?: boolean; keepThreshold?: boolean }): Promise<ProductResult> {
    const data = { sku, product, onlyIfAbsent: context.onlyIfAbsent ?? false, ...(context.keepThreshold ? { keepThreshold: true } : {}) };
    return this.run(viewer, sku, { type: 'PutProduct', data, metadata: this.meta() }, context);
  }

  patch(viewer: Viewer, sku: string, patch: ProductPatch, context: ProductWriteContext): Promise<ProductResult> {
    return this.run(viewer, sku, { type: 'PatchProduct', data: { sku, patch }, metadata: this.meta() }, context);
  }

  /** Retires the product; a retired one stays retired and changes nothing. */
  retire(viewer: Viewer, sku: string, context: ProductWriteContext): Promise<ProductResult> {
    return this.run(viewer, sku, { type: 'RetireProduct', data: { sku }, metadata: this.meta() }, context);
  }

  /** The product as it is now; null when unknown or retired. Every token that may read the catalogue sees every product. */
  async get(_viewer: Viewer, sku: string): Promise<CurrentProduct | null> {
    const snapshot = await this.folded.current(productStream(sku));
    return snapshot && isLive(snapshot.product) ? (snapshot as CurrentProduct) : null;
  }

  /**
   * Each line's name and unit price in `currency`, as the catalogue has them now. A line whose
   * product is unknown, retired, not active or unpriced in the currency fails them all (each such
   * line named); so does a line that sent a unitPrice other than the catalogue's, with the
   * current prices.
   */
  async price(lines: readonly LineInput[], currency: string): Promise<CataloguedLine[]> {
    const skus = [...new Set(lines.map((line) => line.sku))];
    const found = new Map(await Promise.all(skus.map(async (sku) => [sku, (await this.folded.current(productStream(sku)))?.product] as const)));
    const unavailable: FieldError[] = [];
    const changed: CurrentPrice[] = [];
    const priced = lines.map((line, i) => {
      const product = found.get(line.sku);
      const unitPrice = product && product.status === 'active' ? product.prices[currency] : undefined;
      if (!product || !isLive(product) || unitPrice === undefined) {
        unavailable.push({ pointer: `/lines/${i}/sku`, message: unavailability(line.sku, product, currency) });
        return null;
      }
      if (line.unitPrice !== undefined && line.unitPrice !== unitPrice) {
        changed.push({ pointer: `/lines/${i}/unitPrice`, message: `the catalogue's price of ${line.sku} in ${currency} is ${unitPrice}`, unitPrice });
      }
      return { sku: line.sku, name: product.name, quantity: line.quantity, unitPrice, lowStockThreshold: lowStockThresholdOf(product) };
    });
    if (unavailable.length > 0) throw new ProductUnavailable(unavailable);
    if (changed.length > 0) throw new PriceChanged(changed);
    return priced as CataloguedLine[];
  }

  /**
   * The SKU's low-stock threshold as the catalogue has it now (0: none, retired or unknown): what
   * the stock service gives a command that may lower the SKU's available units (its
   * LowStockThresholds port). From the kept fold, so a read of the store only for what changed.
   */
  async lowStockThreshold(sku: string): Promise<number> {
    const product = (await this.folded.current(productStream(sku)))?.product;
    return product && isLive(product) ? lowStockThresholdOf(product) : 0;
  }

  private async run(viewer: Viewer, sku: string, command: ProductCommand, context: ProductWriteContext): Promise<ProductResult> {
    if (!isStaff(viewer)) throw new Forbidden('The catalogue belongs to no single customer: a customer token cannot change it.');
    const current = await this.folded.current(productStream(sku));
    const known = current ? { state: current.product, revision: current.revision, position: current.position } : { state: productDecider.initialState(), revision: null, position: null };
    return this.handler.handle(
      productStream(sku),
      command,
      {
        principal: viewer.sub,
        correlationId: context.correlationId,
        causationId: context.causationId ?? null,
        ...(context.expectedRevision === undefined ? {} : { expectedRevision: context.expectedRevision }),
      },
      known,
    );
  }

  private meta() {
    return { now: this.clock().toISOString() };
  }
}

function fold(from: ProductSnapshot | null, recorded: readonly RecordedEvent[]): ProductSnapshot | null {
  const last = recorded.at(-1);
  if (!last) return from;
  let product = from ? from.product : productDecider.initialState();
  for (const r of recorded) product = productDecider.evolve(product, decodeProductEvent(r));
  return { product, revision: last.revision, position: last.position };
}

function unavailability(sku: string, product: Product | undefined, currency: string): string {
  if (!product || product.status === 'absent') return `there is no product ${sku}`;
  if (product.status === 'retired') return `${sku} was retired`;
  if (product.status === 'draft') return `${sku} is a draft, not active`;
  return `${sku} has no price in ${currency}`;
}
