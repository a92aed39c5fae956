import { useId, useRef } from 'react';
import { Link } from '../../lib/router';
import { useWorkspace } from '../../session';
import { useAttributeCatalog, valueMessage } from '../attributes/catalog';
import { LoadState } from '../attributes/pieces';
import { productLevel, rememberDefinitions, valuesForType, withValue, type AttributeValues } from '../attributes/productValues';
import type { ProductForm } from '../productForm';
import { AttributeValueField } from './AttributeValueField';

/**
 * The product's type and one input per attribute the type gives the product, each of its kind; a required one
 * is marked, and every error stands at its attribute. Variant attributes are named, set on the variants.
 */
export function AttributesSection({
  form,
  set,
  fieldError,
}: {
  form: ProductForm;
  set: <K extends keyof ProductForm>(key: K, value: ProductForm[K]) => void;
  fieldError: (field: string) => string | undefined;
}) {
  const { storeId } = useWorkspace();
  const catalog = useAttributeCatalog(storeId);
  const typeHintId = useId();
  const typeErrorId = useId();
  const data = catalog.data;
  const kept = useRef<AttributeValues>({});

  if (!data) {
    return (
      <section className="panel" aria-labelledby="section-attributes">
        <h2 id="section-attributes">Product type and attributes</h2>
        <LoadState error={catalog.error} title="The product types could not be loaded." loading="Loading the product types…" onRetry={() => void catalog.reload()} />
      </section>
    );
  }

  // The definitions are read synchronously below: the first render after loading must see them too.
  rememberDefinitions(data.attributes, data.productTypes);
  const type = data.productTypes.find((t) => t.id === form.productTypeId);
  const items = form.productTypeId ? productLevel(form.productTypeId) : [];
  const variantNames = (type?.variantAttributes ?? []).map((item) => {
    const a = data.attributes.find((x) => x.id === item.attributeId);
    return `${a?.name ?? item.code}${item.required ? ' (required)' : ''}`;
  });
  const typeError = fieldError('productTypeId');
  const generalError = valueMessage(fieldError('attributes'));

  const chooseType = (id: string) => {
    // The values the new type lacks leave the form (the service drops them on save), but are kept here until
    // then, so that choosing the former type again brings them back; a value cleared on purpose stays cleared.
    const next: AttributeValues = { ...kept.current, ...form.attributes };
    for (const { attribute } of productLevel(form.productTypeId)) if (!(attribute.code in form.attributes)) delete next[attribute.code];
    kept.current = next;
    set('attributes', valuesForType(next, id));
    set('productTypeId', id);
  };

  return (
    <section className="panel" aria-labelledby="section-attributes">
      <h2 id="section-attributes">Product type and attributes</h2>
      <div className={`field${typeError ? ' field-invalid' : ''}`}>
        <label htmlFor={`${typeHintId}-select`}>Product type</label>
        <select
          id={`${typeHintId}-select`}
          value={form.productTypeId}
          onChange={(e) => chooseType(e.target.value)}
          aria-describedby={[typeHintId, typeError ? typeErrorId : ''].filter(Boolean).join(' ')}
          aria-invalid={typeError ? true : undefined}
        >
          <option value="">No type</option>
          {data.productTypes.map((t) => (
            <option key={t.id} value={t.id}>
              {t.name}
            </option>
          ))}
          {form.productTypeId && !type ? <option value={form.productTypeId}>A type that no longer exists</option> : null}
        </select>
        <p className="hint" id={typeHintId}>
          {data.productTypes.length === 0 ? (
            <>
              This store has no product types yet. <Link to="product-types">Create one</Link> to give products attributes.
            </>
          ) : (
            'The type decides which attributes the product has. Choosing another clears the values its attributes lack when you save.'
          )}
        </p>
        {typeError ? (
          <p className="field-error" id={typeErrorId}>
            {typeError}
          </p>
        ) : null}
      </div>
      {generalError ? <p className="field-error">{generalError}</p> : null}
      {type && items.length === 0 ? <p className="muted">This type gives the product itself no attributes.</p> : null}
      <div className="attribute-fields">
        {items.map(({ attribute, required }) => (
          <AttributeValueField
            key={attribute.id}
            attribute={attribute}
            required={required}
            value={form.attributes[attribute.code] ?? null}
            onChange={(value) => set('attributes', withValue(form.attributes, attribute.code, value))}
            error={valueMessage(fieldError(`attributes.${attribute.code}`), attribute)}
          />
        ))}
      </div>
      {variantNames.length ? <p className="muted small">Each variant of this type has: {variantNames.join(', ')}.</p> : null}
    </section>
  );
}
