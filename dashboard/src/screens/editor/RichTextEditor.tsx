import { EditorContent, useEditor, useEditorState } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import { useEffect, useRef } from 'react';

/**
 * A rich text editor (Tiptap) limited to what the service keeps of rich text: paragraphs, bold, italics,
 * underline, strike-through, headings 2-4, lists, quotes, code and links (http, https, mailto). Loaded only
 * when a product has a rich text attribute, so the editor's first paint does not pay for it.
 */
/** The editable area as a labelled multi-line text box, with its error when it has one. */
const contentAttributes = (labelId: string, describedBy: string | undefined, invalid: boolean | undefined): Record<string, string> => ({
  class: 'rich-text-content',
  role: 'textbox',
  'aria-multiline': 'true',
  'aria-labelledby': labelId,
  ...(describedBy ? { 'aria-describedby': describedBy } : {}),
  ...(invalid ? { 'aria-invalid': 'true' } : {}),
});

export default function RichTextEditor({
  value,
  onChange,
  labelId,
  describedBy,
  invalid,
}: {
  value: string;
  onChange: (html: string | null) => void;
  labelId: string;
  describedBy?: string;
  invalid?: boolean;
}) {
  // The last HTML this editor reported: a value from elsewhere (a reload) replaces the content, its own echo does not.
  const emitted = useRef(value);
  const onChangeRef = useRef(onChange);
  onChangeRef.current = onChange;
  const editor = useEditor({
    extensions: [
      StarterKit.configure({
        heading: { levels: [2, 3, 4] },
        horizontalRule: false,
        link: { openOnClick: false, autolink: true, protocols: ['http', 'https', 'mailto'], defaultProtocol: 'https' },
      }),
    ],
    content: value,
    // Its own <style> element would be refused by the page's Content-Security-Policy: the rules are in attributes.css.
    injectCSS: false,
    editorProps: { attributes: contentAttributes(labelId, describedBy, invalid) },
    onUpdate: ({ editor: e }) => {
      const html = e.isEmpty ? '' : e.getHTML();
      emitted.current = html;
      onChangeRef.current(html === '' ? null : html);
    },
  });

  useEffect(() => {
    if (!editor || value === emitted.current) return;
    emitted.current = value;
    editor.commands.setContent(value, { emitUpdate: false });
  }, [editor, value]);

  useEffect(() => {
    editor?.setOptions({ editorProps: { attributes: contentAttributes(labelId, describedBy, invalid) } });
  }, [editor, labelId, describedBy, invalid]);

  const active = useEditorState({
    editor,
    selector: ({ editor: e }) => ({
      bold: e?.isActive('bold') ?? false,
      italic: e?.isActive('italic') ?? false,
      underline: e?.isActive('underline') ?? false,
      heading: e?.isActive('heading', { level: 3 }) ?? false,
      bulletList: e?.isActive('bulletList') ?? false,
      orderedList: e?.isActive('orderedList') ?? false,
    }),
  });

  if (!editor) return null;
  const button = (label: string, text: string, pressed: boolean, run: () => void) => (
    <button
      type="button"
      className="button-secondary button-small"
      aria-pressed={pressed}
      title={label}
      onMouseDown={(e) => e.preventDefault()}
      onClick={run}
    >
      <span aria-hidden="true">{text}</span>
      <span className="visually-hidden">{label}</span>
    </button>
  );
  return (
    <div className={`rich-text${invalid ? ' rich-text-invalid' : ''}`}>
      <div className="rich-text-toolbar" role="toolbar" aria-labelledby={labelId}>
        {button('Bold', 'B', active?.bold ?? false, () => editor.chain().focus().toggleBold().run())}
        {button('Italic', 'I', active?.italic ?? false, () => editor.chain().focus().toggleItalic().run())}
        {button('Underline', 'U', active?.underline ?? false, () => editor.chain().focus().toggleUnderline().run())}
        {button('Heading', 'H', active?.heading ?? false, () => editor.chain().focus().toggleHeading({ level: 3 }).run())}
        {button('Bulleted list', '• List', active?.bulletList ?? false, () => editor.chain().focus().toggleBulletList().run())}
        {button('Numbered list', '1. List', active?.orderedList ?? false, () => editor.chain().focus().toggleOrderedList().run())}
      </div>
      <EditorContent editor={editor} />
    </div>
  );
}
