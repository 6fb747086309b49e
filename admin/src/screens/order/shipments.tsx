// Shipping chosen lines of a paid or partially shipped order, and the order's shipments.
import { api, type Schemas } from '../../api';
import { Field, Scroll, formValue, when } from '../../ui';
import type { FormProps } from './action';
import { chosen, listed, remainingToShip } from './quantities';

const field = (sku: string) => `ship:${sku}`;

export function ShipForm({ order, idempotencyKey, done, refuse }: FormProps) {
  const remaining = [...remainingToShip(order.lines)].filter(([, quantity]) => quantity > 0);

  async function ship(event: Event) {
    event.preventDefault();
    const lines = chosen(event.currentTarget as HTMLFormElement, remaining.map(([sku]) => sku), field);
    if (lines.length === 0) return refuse('Choose at least one unit to ship.');
    const all = remaining.every(([sku, quantity]) => lines.some((line) => line.sku === sku && line.quantity === quantity));
    const result = await api.POST('/orders/{id}/shipments', {
      params: { path: { id: order.id }, header: { 'Idempotency-Key': idempotencyKey } },
      body: { carrier: formValue(event, 'carrier'), trackingNumber: formValue(event, 'trackingNumber'), lines },
    });
    await done(result, all ? 'The order was shipped.' : `Shipped ${listed(lines)}; the rest remains to ship.`);
  }

  return (
    <form class="panel" onSubmit={ship} aria-label="Ship the order">
      <Scroll label="Units to ship">
        <table>
          <thead>
            <tr>
              <th scope="col">SKU</th>
              <th scope="col" class="num">
                To ship
              </th>
              <th scope="col">Ship now</th>
            </tr>
          </thead>
          <tbody>
            {remaining.map(([sku, quantity]) => (
              <tr key={sku}>
                <td>{sku}</td>
                <td class="num">{quantity}</td>
                <td>
                  <input name={field(sku)} type="number" min={0} max={quantity} step={1} required defaultValue={String(quantity)} aria-label={`Quantity of ${sku} to ship`} inputMode="numeric" size={5} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </Scroll>
      <Field label="Carrier">
        <input name="carrier" required />
      </Field>
      <Field label="Tracking number">
        <input name="trackingNumber" required />
      </Field>
      <button type="submit">Record the shipment</button>
    </form>
  );
}

export function Shipments({ shipments }: { shipments: readonly Schemas['Shipment'][] }) {
  if (shipments.length === 0) return null;
  return (
    <>
      <h2>Shipments</h2>
      <Scroll label="Shipments">
        <table>
          <thead>
            <tr>
              <th scope="col">Shipped</th>
              <th scope="col">Units</th>
              <th scope="col">Carrier</th>
              <th scope="col">Tracking number</th>
            </tr>
          </thead>
          <tbody>
            {shipments.map((shipment) => (
              <tr key={shipment.id}>
                <td>{when(shipment.createdAt)}</td>
                <td>{listed(shipment.lines)}</td>
                <td>{shipment.carrier}</td>
                <td class="mono">{shipment.trackingNumber}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </Scroll>
    </>
  );
}
