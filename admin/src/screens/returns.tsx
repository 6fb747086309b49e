// Every order's returns (GET /returns), oldest request first, by status: the list behind the home
// screen's "Returns to receive" (#/returns?status=requested). A return is received or cancelled on
// its order's page, where its lines are.
import { useState } from 'preact/hooks';
import { api, consistency, type Schemas } from '../api';
import { href, hrefWith, keepQuery } from '../router';
import { Empty, Field, Pager, Refusal, Scroll, Status, Title, useCursors, usePage, when } from '../ui';

type ReturnStatus = Schemas['Return']['status'];
const STATUSES: readonly ReturnStatus[] = ['requested', 'received', 'cancelled'];

export function Returns({ query }: { query: URLSearchParams }) {
  const asked = query.get('status') as ReturnStatus | null;
  const [status, setStatus] = useState<ReturnStatus | ''>(asked && STATUSES.includes(asked) ? asked : '');
  const cursors = useCursors();
  const [refusal, setRefusal] = useState<string | null>(null);
  const { page, loading } = usePage(() => api.GET('/returns', { params: { query: { limit: 20, ...(status ? { status } : {}), ...(cursors.cursor ? { cursor: cursors.cursor } : {}) }, header: consistency() } }), [status, cursors.cursor], setRefusal);

  return (
    <>
      <Title>Returns</Title>
      <div class="filters">
        <Field label="Status">
          <select
            value={status}
            onChange={(event) => {
              const value = (event.currentTarget as HTMLSelectElement).value as ReturnStatus | '';
              setStatus(value);
              keepQuery({ status: value || undefined });
              cursors.reset();
            }}
          >
            <option value="">any</option>
            <option value="requested">requested: waiting to be received</option>
            <option value="received">received</option>
            <option value="cancelled">cancelled</option>
          </select>
        </Field>
      </div>
      <Refusal message={refusal} />
      {page && page.items.length === 0 && cursors.page === 1 ? (
        <Empty>
          <p>{status === 'requested' ? 'No return is waiting to be received.' : status ? `No return is ${status}.` : 'No return was requested yet.'}</p>
          <p>A return is requested on a shipped order’s page (Request a return), and received or cancelled there; it is listed here meanwhile.</p>
          <p>
            <a href={hrefWith(['orders'], { status: 'shipped' })}>See the shipped orders</a>
          </p>
        </Empty>
      ) : page ? (
        <>
          <Scroll label="Returns">
            <table>
              <thead>
                <tr>
                  <th scope="col">Order</th>
                  <th scope="col">Status</th>
                  <th scope="col">Units</th>
                  <th scope="col">Reason</th>
                  <th scope="col">Requested</th>
                </tr>
              </thead>
              <tbody>
                {page.items.map((ret) => (
                  <tr key={ret.id} data-return={ret.id}>
                    <td>
                      <a href={href('orders', ret.orderId)}>{ret.orderId.slice(0, 8)}</a>
                    </td>
                    <td>
                      <Status value={ret.status} />
                    </td>
                    <td>{ret.lines.map((line) => `${line.quantity} × ${line.sku}`).join(', ')}</td>
                    <td>{ret.reason}</td>
                    <td>{when(ret.createdAt)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </Scroll>
          <Pager cursors={cursors} nextCursor={page.nextCursor} loading={loading} />
        </>
      ) : null}
    </>
  );
}
