import type { ApiError } from '../../api/client';
import { ErrorMessage, Field } from '../../components/ui';
import type { SeoForm } from '../productForm';

export function SeoEditor({
  seo,
  onChange,
  error,
  productName,
  productDescription,
}: {
  seo: SeoForm;
  onChange: (seo: SeoForm) => void;
  error: ApiError | null;
  productName: string;
  productDescription: string;
}) {
  const set = <K extends keyof SeoForm>(key: K, value: SeoForm[K]) => onChange({ ...seo, [key]: value });
  const fieldError = (field: string) => error?.fields[field] ?? (error?.code === 'slug_taken' && field === 'slug' ? error.message : undefined);
  const general = error && Object.keys(error.fields).length === 0 && error.code !== 'slug_taken' ? error : null;
  const previewTitle = seo.title.trim() || productName.trim() || 'Product title';
  const previewDescription = seo.description.trim() || productDescription.trim() || 'A short description of the product appears here.';
  const slug = seo.slug.trim() || 'your-product';
  const host = window.location.host;
  return (
    <section className="panel" aria-labelledby="section-seo">
      <h2 id="section-seo">Search engine listing</h2>
      <ErrorMessage error={general} title="The search engine listing was not saved." />
      {error && !general ? (
        <p className="field-error" role="alert">
          The search engine listing was not saved: correct the fields marked below.
        </p>
      ) : null}
      <div className="seo-layout">
        <div>
          <Field label="Page title" hint={`${seo.title.length} of 70 characters; empty: the product name.`} error={fieldError('title')}>
            {(p) => <input {...p} value={seo.title} onChange={(e) => set('title', e.target.value)} />}
          </Field>
          <Field label="Meta description" hint={`${seo.description.length} of 320 characters.`} error={fieldError('description')}>
            {(p) => <textarea {...p} rows={3} value={seo.description} onChange={(e) => set('description', e.target.value)} />}
          </Field>
          <Field label="URL slug" hint="Lowercase letters, digits and hyphens; unique in the store." error={fieldError('slug')}>
            {(p) => <input {...p} value={seo.slug} onChange={(e) => set('slug', e.target.value)} />}
          </Field>
          <Field label="Canonical URL" error={fieldError('canonicalUrl')}>
            {(p) => <input {...p} type="url" value={seo.canonicalUrl} onChange={(e) => set('canonicalUrl', e.target.value)} placeholder="https://…" />}
          </Field>
          <Field label="Social image URL" error={fieldError('ogImageUrl')}>
            {(p) => <input {...p} type="url" value={seo.ogImageUrl} onChange={(e) => set('ogImageUrl', e.target.value)} placeholder="https://…" />}
          </Field>
          <div className="field field-check">
            <input id="seo-noindex" type="checkbox" checked={seo.noindex} onChange={(e) => set('noindex', e.target.checked)} />
            <label htmlFor="seo-noindex">Hide from search engines (noindex)</label>
          </div>
        </div>
        <figure className="serp">
          <figcaption>Search result preview</figcaption>
          <div className="serp-card">
            <p className="serp-url">
              {host} › products › {slug}
            </p>
            <p className="serp-title">{truncate(previewTitle, 60)}</p>
            <p className="serp-description">{truncate(previewDescription, 160)}</p>
            {seo.noindex ? <p className="serp-note">Hidden from search engines: this result would not appear.</p> : null}
          </div>
        </figure>
      </div>
    </section>
  );
}

const truncate = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1).trimEnd()}…` : text);
