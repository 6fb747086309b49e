// An order's lines, with what of each shipped, was cancelled and came back, and its balance.
import type { Schemas } from '../../api';
import { Scroll, money } from '../../ui';

type Order = Schemas['Order'];

export function Lines({ order, label = 'Order lines' }: { order: Order; label?: string }) {
  return (
    <Scroll label={label}>
      <table>
        <thead>
          <tr>
            <th scope="col">SKU</th>
            <th scope="col" class="num">
              Quantity
            </th>
            <th scope="col" class="num">
              Shipped
            </th>
            <th scope="col" class="num">
              Cancelled
            </th>
            <th scope="col" class="num">
              Returned
            </th>
            <th scope="col" class="num">
              Unit price
            </th>
            <th scope="col" class="num">
              Line total
            </th>
          </tr>
        </thead>
        <tbody>
          {order.lines.map((line, i) => (
            <tr key={i}>
              <td>{line.sku}</td>
              <td class="num">{line.quantity}</td>
              <td class="num">{line.shipped}</td>
              <td class="num">{line.cancelled}</td>
              <td class="num">{line.returned}</td>
              <td class="num">{money(line.unitPrice, order.currency)}</td>
              <td class="num">{money(line.lineTotal, order.currency)}</td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row" colSpan={6}>
              Total
            </th>
            <td class="num">{money(order.total, order.currency)}</td>
          </tr>
        </tfoot>
      </table>
    </Scroll>
  );
}

/** What is due, said as a person reads it: a negative due is money owed back to the customer. */
export function due(minor: number, currency: string): string {
  return minor < 0 ? `${money(-minor, currency)} owed back to the customer` : money(minor, currency);
}

/** charged − paid + refunded = due (HTTP-CONTRACT "Orders after payment"). */
export function Balance({ order }: { order: Order }) {
  const { charged, paid, refunded } = order.balance;
  return (
    <dl class="balance">
      <dt>Charged</dt>
      <dd data-balance="charged">{money(charged, order.currency)}</dd>
      <dt>Paid</dt>
      <dd data-balance="paid">{money(paid, order.currency)}</dd>
      <dt>Refunded</dt>
      <dd data-balance="refunded">{money(refunded, order.currency)}</dd>
      <dt>Due</dt>
      <dd data-balance="due">{due(order.balance.due, order.currency)}</dd>
    </dl>
  );
}
