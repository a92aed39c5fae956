import { useState } from 'react';
import { mutate, toApiError, type ApiError } from '../../api/client';
import { ErrorMessage, Field } from '../../components/ui';
import { useToast } from '../../components/toasts';
import { GenerateProductDescriptionDocument, type DescriptionTone } from '../../generated/graphql';
import { splitList } from '../../lib/format';
import { useWorkspace } from '../../session';
import type { ProductForm } from '../productForm';

export function DescriptionField({
  form,
  setDescription,
  error,
  productId,
}: {
  form: ProductForm;
  setDescription: (text: string) => void;
  error?: string;
  productId: string | null;
}) {
  const { storeId, store } = useWorkspace();
  const [tone, setTone] = useState<DescriptionTone>('neutral');
  const [busy, setBusy] = useState(false);
  const [generated, setGenerated] = useState<string | null>(null);
  // The merchant's own text the generated one replaced, until they undo or type on.
  const [replaced, setReplaced] = useState<string | null>(null);
  const [genError, setGenError] = useState<ApiError | null>(null);
  const toast = useToast();

  const generate = async () => {
    setGenError(null);
    setGenerated(null);
    if (!form.name.trim() && !productId) {
      setGenError({ code: 'error', message: 'Enter the product name first: the description is written from it.', fields: {} });
      return;
    }
    setBusy(true);
    try {
      const category = store.categories.find((c) => form.categorySlugs.includes(c.slug))?.name;
      const data = await mutate(GenerateProductDescriptionDocument, {
        storeId,
        input: {
          ...(productId ? { productId } : {}),
          ...(form.name.trim() ? { name: form.name.trim() } : {}),
          ...(category ? { category } : {}),
          tags: splitList(form.tags),
          tone,
        },
      });
      const previous = form.description;
      setDescription(data.generateProductDescription.description);
      // Where it came from matters to the merchant only as "generated"; the provider's internal names stay out.
      setGenerated('A description was written from the name, category and tags. Check it before saving.');
      if (previous.trim()) {
        setReplaced(previous);
        toast.show({ tone: 'info', message: 'Your description was replaced by a generated one.', action: { label: 'Undo', onAction: () => undoTo(previous) } });
      } else setReplaced(null);
    } catch (caught) {
      setGenError(toApiError(caught));
    } finally {
      setBusy(false);
    }
  };

  const undoTo = (previous: string) => {
    setDescription(previous);
    setReplaced(null);
    setGenerated('Your own description is back.');
  };

  return (
    <>
      <Field label="Description" error={error}>
        {(p) => (
          <textarea
            {...p}
            rows={6}
            value={form.description}
            onChange={(e) => {
              setReplaced(null);
              setDescription(e.target.value);
            }}
          />
        )}
      </Field>
      <div className="generate-row">
        <label htmlFor="generate-tone">Tone</label>
        <select id="generate-tone" value={tone} onChange={(e) => setTone(e.target.value as DescriptionTone)}>
          <option value="neutral">Neutral</option>
          <option value="friendly">Friendly</option>
          <option value="luxury">Luxury</option>
          <option value="playful">Playful</option>
        </select>
        <button type="button" className="button-secondary" onClick={() => void generate()} disabled={busy}>
          {busy ? 'Writing…' : 'Generate description'}
        </button>
      </div>
      <div className="generate-status">
        <p role="status" className="hint">
          {generated ?? ''}
        </p>
        {replaced !== null ? (
          <button type="button" className="button-secondary button-small" onClick={() => undoTo(replaced)}>
            Undo: restore my description
          </button>
        ) : null}
      </div>
      <ErrorMessage error={genError} />
    </>
  );
}
