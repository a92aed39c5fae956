import { type DragEvent, useEffect, useId, useRef, useState } from 'react';
import { mutate, toApiError, uploadMutation, type ApiError } from '../../api/client';
import { ConfirmButton, ErrorMessage } from '../../components/ui';
import { ArrangeProductImagesDocument, RemoveProductImageDocument, UploadProductImageDocument, type ProductDetailFragment } from '../../generated/graphql';
import { useDragReorder } from '../../lib/dragReorder';
import { useWorkspace } from '../../session';

const ACCEPTED = ['image/jpeg', 'image/png', 'image/webp'];

/** An image in the order being arranged, with the alt text being typed. */
interface ArrangedImage {
  id: string;
  alt: string;
}

const byPosition = (images: ProductDetailFragment['images']) => [...images].sort((a, b) => a.position - b.position);

export function ImagesEditor({ product, onChanged, onConflict }: { product: ProductDetailFragment; onChanged: () => Promise<void>; onConflict: () => void }) {
  const { storeId, mode } = useWorkspace();
  const baseId = useId();
  const [alt, setAlt] = useState('');
  const [uploading, setUploading] = useState<string | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const [status, setStatus] = useState('');
  const [dragging, setDragging] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);
  const saved = byPosition(product.images);
  // The order and alt texts as saved; a draft made from another saved state (an upload, a removal, a reload) is dropped.
  const savedKey = JSON.stringify(saved.map((i) => [i.id, i.alt ?? '']));
  const [draft, setDraft] = useState<{ from: string; rows: ArrangedImage[] } | null>(null);
  const rows: ArrangedImage[] = draft && draft.from === savedKey ? draft.rows : saved.map((i) => ({ id: i.id, alt: i.alt ?? '' }));
  const arrangementChanged = rows.some((row, index) => row.id !== saved[index]?.id || row.alt.trim() !== (saved[index]?.alt ?? ''));
  const [arranging, setArranging] = useState(false);
  const [arrangeError, setArrangeError] = useState<ApiError | null>(null);
  const [focusAfterMove, setFocusAfterMove] = useState<string | null>(null);
  const imagesById = new Map(product.images.map((i) => [i.id, i]));

  useEffect(() => {
    if (!focusAfterMove) return;
    document.getElementById(focusAfterMove)?.focus();
    setFocusAfterMove(null);
  }, [focusAfterMove]);

  const setRows = (next: ArrangedImage[]) => setDraft({ from: savedKey, rows: next });
  // Dragging an image onto another puts it in that place (the Move buttons do the same from the keyboard).
  const drag = useDragReorder((from, target) => {
    const next = [...rows];
    const [moved] = next.splice(from, 1);
    next.splice(target, 0, moved!);
    setRows(next);
    setStatus(`Image ${from + 1} moved to position ${target + 1}. Save to keep the new order.`);
  }, !arranging);

  const move = (index: number, by: -1 | 1) => {
    const target = index + by;
    if (target < 0 || target >= rows.length) return;
    const next = [...rows];
    const [moved] = next.splice(index, 1);
    next.splice(target, 0, moved!);
    setRows(next);
    setStatus(`Image ${index + 1} moved to position ${target + 1}. Save to keep the new order.`);
    // Keep the focus on the moved image: on the same button, or on the other one when it reached an end.
    const atEnd = by === -1 ? target === 0 : target === next.length - 1;
    const direction = atEnd ? (by === -1 ? 'down' : 'up') : by === -1 ? 'up' : 'down';
    if (next.length > 1) setFocusAfterMove(`${baseId}-${moved!.id}-${direction}`);
  };

  const saveArrangement = async () => {
    setError(null);
    setArrangeError(null);
    setStatus('');
    setArranging(true);
    try {
      await mutate(ArrangeProductImagesDocument, {
        storeId,
        mode,
        productId: product.id,
        expectedVersion: product.version,
        images: rows.map((row) => ({ id: row.id, alt: row.alt.trim() || null })),
      });
      // The draft stays shown until the refreshed product replaces it (it is kept only for the saved state it came from).
      setStatus('Saved the image order and alt text.');
      await onChanged();
    } catch (caught) {
      const apiError = toApiError(caught);
      if (apiError.code === 'precondition_failed') {
        onConflict();
        setStatus('The image order and alt text were not saved: the product changed since you opened it (see the message at the top).');
      } else {
        setArrangeError(apiError);
      }
    } finally {
      setArranging(false);
    }
  };


  const upload = async (files: FileList | File[]) => {
    setError(null);
    setStatus('');
    for (const file of Array.from(files)) {
      setUploading(file.name);
      try {
        await uploadMutation(UploadProductImageDocument, { storeId, mode, productId: product.id, alt: alt.trim() || null, file }, 'file', file);
        setStatus(`Uploaded ${file.name}.`);
      } catch (caught) {
        const apiError = toApiError(caught);
        setError({ ...apiError, message: `${file.name}: ${uploadMessage(apiError)}` });
        break;
      } finally {
        setUploading(null);
      }
    }
    setAlt('');
    if (inputRef.current) inputRef.current.value = '';
    await onChanged();
  };

  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    if (event.dataTransfer.files.length) void upload(event.dataTransfer.files);
  };

  const removeImage = async (id: string) => {
    setError(null);
    try {
      await mutate(RemoveProductImageDocument, { storeId, mode, productId: product.id, id });
      setStatus('Image removed.');
      await onChanged();
    } catch (caught) {
      setError(toApiError(caught));
    }
  };

  return (
    <section className="panel" aria-labelledby="section-images">
      <h2 id="section-images">Images</h2>
      {product.images.length === 0 ? <p className="muted">No images yet.</p> : null}
      {product.images.length > 0 ? (
        <>
          <p className="hint">The first image is the main one. Drag an image onto another place to reorder, or use its Move buttons.</p>
          <ul className="image-grid">
            {rows.map((row, index) => {
              const image = imagesById.get(row.id);
              if (!image) return null;
              const n = index + 1;
              const altId = `${baseId}-${image.id}-alt`;
              return (
                <li
                  key={image.id}
                  className={`image-card${drag.dragging(index) ? ' image-card-dragging' : ''}${drag.target(index) ? ' image-card-target' : ''}`}
                  data-testid="image-card"
                  {...drag.itemProps(index, image.id)}
                >
                  <img src={image.url} alt={image.alt ?? `Image ${n} of ${product.name}`} width={160} height={Math.round((160 * image.height) / Math.max(1, image.width))} />
                  <p className="small">
                    {index === 0 ? 'Main image · ' : ''}
                    {image.width}×{image.height}, {Math.round(image.sizeBytes / 1024)} kB
                  </p>
                  <div className="field image-alt-field">
                    <label htmlFor={altId}>
                      Alt text<span className="visually-hidden"> of image {n}</span>
                    </label>
                    <input id={altId} value={row.alt} maxLength={500} onChange={(e) => setRows(rows.map((r, i) => (i === index ? { ...r, alt: e.target.value } : r)))} />
                  </div>
                  <div className="button-row image-card-actions">
                    <button
                      type="button"
                      id={`${baseId}-${image.id}-up`}
                      className="button-secondary button-small"
                      onClick={() => move(index, -1)}
                      disabled={index === 0 || arranging}
                    >
                      Move <span className="visually-hidden">image {n} </span>up
                    </button>
                    <button
                      type="button"
                      id={`${baseId}-${image.id}-down`}
                      className="button-secondary button-small"
                      onClick={() => move(index, 1)}
                      disabled={index === rows.length - 1 || arranging}
                    >
                      Move <span className="visually-hidden">image {n} </span>down
                    </button>
                    <ConfirmButton confirmLabel="Remove" question="Remove this image?" onConfirm={() => removeImage(image.id)} className="button-secondary button-small">
                      Remove<span className="visually-hidden"> image {n}</span>
                    </ConfirmButton>
                  </div>
                </li>
              );
            })}
          </ul>
          <div className="button-row image-arrange-actions">
            <button type="button" onClick={() => void saveArrangement()} disabled={!arrangementChanged || arranging}>
              {arranging ? 'Saving…' : 'Save image order and alt text'}
            </button>
            {arrangementChanged && !arranging ? (
              <button type="button" className="button-secondary" onClick={() => setDraft(null)}>
                Discard image changes
              </button>
            ) : null}
          </div>
          <ErrorMessage error={arrangeError} title="The image order and alt text were not saved." />
        </>
      ) : null}
      <div
        className={`dropzone${dragging ? ' dropzone-active' : ''}`}
        onDragOver={(e) => {
          e.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
        data-testid="image-dropzone"
      >
        <p>Drop JPEG, PNG or WebP images here (up to 10 MB each), or choose files:</p>
        <div className="grid-2">
          <div className="field">
            <label htmlFor="image-file">Image files</label>
            <input id="image-file" ref={inputRef} type="file" accept={ACCEPTED.join(',')} multiple onChange={(e) => e.target.files && void upload(e.target.files)} />
          </div>
          <div className="field">
            <label htmlFor="image-alt">Alt text for the next upload</label>
            <input id="image-alt" value={alt} onChange={(e) => setAlt(e.target.value)} maxLength={1000} />
          </div>
        </div>
      </div>
      <p role="status" className="hint">
        {uploading ? `Uploading ${uploading}…` : status}
      </p>
      <ErrorMessage error={error} title="The image was not added." />
    </section>
  );
}

export function uploadMessage(error: ApiError): string {
  switch (error.code) {
    case 'unsupported_media_type':
      return 'this file type is not accepted: upload a JPEG, PNG or WebP image.';
    case 'payload_too_large':
      return 'the file is too large (at most 10 MB).';
    case 'image_dimensions_too_large':
      return 'the image has too many pixels (at most 40 megapixels).';
    case 'invalid_image':
      return 'the file could not be read as an image.';
    default:
      return error.message;
  }
}
