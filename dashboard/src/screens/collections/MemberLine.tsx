import type { ReactNode } from 'react';
import type { CollectionMemberFragment } from '../../generated/graphql';
import { formatMoney } from '../../lib/format';
import { Link } from '../../lib/router';
import { StatusBadge } from '../ProductList';

/** A product in a short list: its thumbnail, name (a link to it, unless `plain`), status and price, then `children`. */
export function MemberLine({ product, currency, plain, children }: { product: CollectionMemberFragment; currency: string; plain?: boolean; children?: ReactNode }) {
  const image = [...product.images].sort((a, b) => a.position - b.position)[0];
  return (
    <li className="member-line">
      {image ? <img className="thumb" src={image.url} alt="" width={40} height={40} loading="lazy" /> : <span className="thumb-empty" aria-hidden="true" />}
      <span className="member-name">
        {plain ? product.name : <Link to={`products/${product.id}`}>{product.name}</Link>}
        <span className="member-facts">
          <StatusBadge status={product.status} /> <span className="muted">{formatMoney(product.price, product.currency || currency)}</span>
        </span>
      </span>
      {children}
    </li>
  );
}
