// The lists behind the home screen's figures: GET /summary names each as the API's URL (href);
// this maps it to the screen of the app that shows that list, with the same filter.
import { href, hrefWith } from './router';

/**
 * The app's route for an API list URL: /orders?status=pending&sort=createdAt is the orders screen
 * filtered so, /returns?status=requested the returns screen, /stock?belowThreshold=true the stock
 * screen, /webhook-subscriptions/<id>/deliveries?status=failed that subscription's page. The
 * fulfilment queue needs shipments:write: without it, the orders waiting to ship are the paid ones.
 */
export function screenOf(apiHref: string, can: (scope: string) => boolean): string {
  const url = new URL(apiHref, location.origin);
  const [first, second] = url.pathname.split('/').filter(Boolean).map(decodeURIComponent);
  const query = url.searchParams;
  switch (first) {
    case 'orders':
      return second ? href('orders', second) : hrefWith(['orders'], query);
    case 'fulfilment-queue':
      return can('shipments:write') ? href('queue') : hrefWith(['orders'], { status: 'paid', sort: 'createdAt' });
    case 'returns':
      return hrefWith(['returns'], query);
    case 'stock':
      // A SKU's stock has no page of its own: the stock list from that SKU on.
      return second ? hrefWith(['stock'], { skuPrefix: second }) : hrefWith(['stock'], query);
    case 'webhook-subscriptions':
      return second ? hrefWith(['webhooks', second], query) : href('webhooks');
    default:
      return href();
  }
}
