import { type DragEvent, useState } from 'react';

/**
 * Reordering a list by native drag and drop: an item dragged onto another takes its place. `itemProps(index, id)`
 * goes on each item; `dragging(index)` and `target(index)` say how to mark them. The keyboard's way (Move buttons)
 * is each list's own. Dragging that starts in a text input selects text as usual instead.
 */
export function useDragReorder(onMove: (from: number, to: number) => void, enabled: boolean) {
  const [from, setFrom] = useState<number | null>(null);
  const [over, setOver] = useState<number | null>(null);
  const end = () => {
    setFrom(null);
    setOver(null);
  };
  const itemProps = (index: number, id: string) => ({
    draggable: enabled,
    onDragStart: (e: DragEvent<HTMLElement>) => {
      if (!enabled || e.target instanceof HTMLInputElement) return;
      e.dataTransfer.effectAllowed = 'move';
      e.dataTransfer.setData('text/plain', id);
      setFrom(index);
    },
    onDragOver: (e: DragEvent<HTMLElement>) => {
      if (from === null) return;
      e.preventDefault();
      e.dataTransfer.dropEffect = 'move';
      if (over !== index) setOver(index);
    },
    onDragLeave: () => setOver((o) => (o === index ? null : o)),
    onDrop: (e: DragEvent<HTMLElement>) => {
      if (from === null) return;
      e.preventDefault();
      const start = from;
      end();
      if (start !== index) onMove(start, index);
    },
    onDragEnd: end,
  });
  return { itemProps, dragging: (index: number) => from === index, target: (index: number) => over === index && from !== index };
}
