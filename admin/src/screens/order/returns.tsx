// Returns: requesting one of what shipped, the order's returns, and receiving (restocked or
// damaged) or cancelling a requested one. Receipts and cancellations take no Idempotency-Key:
// done twice, the second is 409 state-conflict, and the list shows the return as it is.
import { api, type Schemas } from '../../api';
import { Confirm, Field, Scroll, Status, when } from '../../ui';
import type { Done, FormProps, Order } from './action';
import { chosen, listed, returnable } from './quantities';

type Return = Schemas['Return'];

const returnField = (sku: string) => `return:${sku}`;
const receiveField = (sku: string) => `receive:${sku}`;
const restockField = (sku: string) => `restock:${sku}`;
const short = (ret: Return) => ret.id.slice(0, 8);

export function ReturnForm({ order, returns, idempotencyKey, done, refuse }: FormProps & { returns: readonly Return[] }) {
  const left = [...returnable(order.lines, returns)].filter(([, quantity]) => quantity > 0);

  async function request(event: Event) {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const lines = chosen(form, left.map(([sku]) => sku), returnField);
    if (lines.length === 0) return refuse('Choose at least one unit to return.');
    const result = await api.POST('/orders/{id}/returns', {
      params: { path: { id: order.id }, header: { 'Idempotency-Key': idempotencyKey } },
      body: { lines, reason: String(new FormData(form).get('reason') ?? '').trim() },
    });
    await done(result, `A return of ${listed(lines)} was requested.`);
  }

  return (
    <form class="panel" onSubmit={request} aria-label="Request a return">
      <Scroll label="Units that may be returned">
        <table>
          <thead>
            <tr>
              <th scope="col">SKU</th>
              <th scope="col" class="num">
                Returnable
              </th>
              <th scope="col">Return</th>
            </tr>
          </thead>
          <tbody>
            {left.map(([sku, quantity]) => (
              <tr key={sku}>
                <td>{sku}</td>
                <td class="num">{quantity}</td>
                <td>
                  <input name={returnField(sku)} type="number" min={0} max={quantity} step={1} required defaultValue="0" aria-label={`Quantity of ${sku} to return`} inputMode="numeric" size={5} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </Scroll>
      <Field label="Reason">
        <input name="reason" required />
      </Field>
      <button type="submit">Request the return</button>
    </form>
  );
}

/** Per SKU, what the return asked for. */
function asked(ret: Return): Array<[string, number]> {
  const sums = new Map<string, number>();
  for (const line of ret.lines) sums.set(line.sku, (sums.get(line.sku) ?? 0) + line.quantity);
  return [...sums];
}

function ReceiveForm({ order, ret, done, close }: { order: Order; ret: Return; done: Done; close: () => void }) {
  const lines = asked(ret);

  async function receive(event: Event) {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const data = new FormData(form);
    // Nothing at all may come back: a receipt of no line is one too.
    const received = chosen(form, lines.map(([sku]) => sku), receiveField).map((line) => ({ ...line, restock: data.get(restockField(line.sku)) === 'on' }));
    const result = await api.POST('/orders/{id}/returns/{returnId}/receipt', { params: { path: { id: order.id, returnId: ret.id } }, body: { lines: received } });
    await done(result, `Return ${short(ret)} was received.`);
  }

  return (
    <form class="panel" onSubmit={receive} aria-label={`Receive return ${short(ret)}`}>
      <h2>Receive return {short(ret)}</h2>
      <p class="muted">Restocked units go back on hand; the others are recorded as damaged.</p>
      <Scroll label={`Units of return ${short(ret)}`}>
        <table>
          <thead>
            <tr>
              <th scope="col">SKU</th>
              <th scope="col" class="num">
                Requested
              </th>
              <th scope="col">Received</th>
              <th scope="col">Restock</th>
            </tr>
          </thead>
          <tbody>
            {lines.map(([sku, quantity]) => (
              <tr key={sku}>
                <td>{sku}</td>
                <td class="num">{quantity}</td>
                <td>
                  <input name={receiveField(sku)} type="number" min={0} max={quantity} step={1} required defaultValue={String(quantity)} aria-label={`Quantity of ${sku} received`} inputMode="numeric" size={5} />
                </td>
                <td>
                  <input name={restockField(sku)} type="checkbox" defaultChecked aria-label={`Restock ${sku} (back on hand; unchecked: damaged)`} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </Scroll>
      <div class="actions">
        <button type="submit">Record the receipt</button>
        <button type="button" class="secondary" onClick={close}>
          Close
        </button>
      </div>
    </form>
  );
}

/** What came back of a received return: restocked, or damaged. */
function receivedOf(ret: Return): string {
  if (!ret.received) return '—';
  if (ret.received.length === 0) return 'nothing';
  return ret.received.map((line) => `${line.quantity} × ${line.sku} ${line.restock ? 'back on hand' : 'damaged'}`).join(', ');
}

export type ReturnAction = { readonly kind: 'receive' | 'cancel'; readonly returnId: string };

export function Returns({ order, returns, writer, open, setOpen, done }: { order: Order; returns: readonly Return[]; writer: boolean; open: ReturnAction | null; setOpen: (action: ReturnAction | null) => void; done: Done }) {
  if (returns.length === 0) return null;
  const opened = returns.find((ret) => ret.id === open?.returnId && ret.status === 'requested');

  async function cancel(ret: Return) {
    setOpen(null);
    const result = await api.POST('/orders/{id}/returns/{returnId}/cancellation', { params: { path: { id: order.id, returnId: ret.id } } });
    await done(result, `Return ${short(ret)} was cancelled.`);
  }

  return (
    <>
      <h2>Returns</h2>
      <Scroll label="Returns">
        <table>
          <thead>
            <tr>
              <th scope="col">Requested</th>
              <th scope="col">Units</th>
              <th scope="col">Reason</th>
              <th scope="col">Status</th>
              <th scope="col">Received</th>
              {writer ? <th scope="col">Actions</th> : null}
            </tr>
          </thead>
          <tbody>
            {returns.map((ret) => (
              <tr key={ret.id} data-return={ret.id}>
                <td>{when(ret.createdAt)}</td>
                <td>{listed(ret.lines)}</td>
                <td>{ret.reason}</td>
                <td>
                  <Status value={ret.status} />
                </td>
                <td>{receivedOf(ret)}</td>
                {writer ? (
                  <td>
                    {ret.status === 'requested' ? (
                      <div class="actions">
                        <button type="button" aria-expanded={open?.kind === 'receive' && open.returnId === ret.id} aria-label={`Receive return ${short(ret)}`} onClick={() => setOpen({ kind: 'receive', returnId: ret.id })}>
                          Receive
                        </button>
                        <button type="button" class="danger" aria-label={`Cancel return ${short(ret)}`} onClick={() => setOpen({ kind: 'cancel', returnId: ret.id })}>
                          Cancel
                        </button>
                      </div>
                    ) : null}
                  </td>
                ) : null}
              </tr>
            ))}
          </tbody>
        </table>
      </Scroll>
      {opened && open?.kind === 'receive' ? <ReceiveForm order={order} ret={opened} done={done} close={() => setOpen(null)} /> : null}
      {opened && open?.kind === 'cancel' ? (
        <Confirm question={`Cancel return ${short(opened)} of ${listed(opened.lines)}? Its units may then be returned again.`} confirm={`Cancel return ${short(opened)}`} onConfirm={() => void cancel(opened)} onCancel={() => setOpen(null)} />
      ) : null}
    </>
  );
}
