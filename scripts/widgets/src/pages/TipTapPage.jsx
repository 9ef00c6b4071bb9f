import { useState } from 'react'
import { EditorContent, useEditor } from '@tiptap/react'
import StarterKit from '@tiptap/starter-kit'

export default function TipTapPage() {
  const [doc, setDoc] = useState({ html: '', words: 0 })
  const track = ({ editor }) =>
    setDoc({ html: editor.getHTML(), words: editor.getText().split(/\s+/).filter(Boolean).length })
  const editor = useEditor({
    extensions: [StarterKit],
    content: '<p>Agenda for Monday</p>',
    editorProps: { attributes: { class: 'editor', 'aria-label': 'Meeting notes editor' } },
    onCreate: track,
    onUpdate: track,
  })
  return (
    <>
      <h1>Meeting notes</h1>
      <div className="toolbar" role="toolbar" aria-label="Formatting">
        <button type="button" onClick={() => editor.chain().focus().toggleBold().run()}>Bold</button>
        <button type="button" onClick={() => editor.chain().focus().toggleHeading({ level: 2 }).run()}>Heading</button>
        <button type="button" onClick={() => editor.chain().focus().toggleBulletList().run()}>Bullet list</button>
      </div>
      <EditorContent editor={editor} />
      <p className="out">Words: {doc.words}</p>
      <h2>HTML</h2>
      <pre className="md" aria-label="HTML output">{doc.html}</pre>
    </>
  )
}
