import { useEffect, useRef, useState } from 'react'
import Quill from 'quill'
import 'quill/dist/quill.snow.css'

// A Quill editor with its snow toolbar, as its docs set one up; the page
// reads its text and how many bold runs it holds.
export default function QuillPage() {
  const host = useRef(null)
  const [text, setText] = useState('')
  const [bold, setBold] = useState(0)
  useEffect(() => {
    const quill = new Quill(host.current, {
      theme: 'snow',
      placeholder: 'Write the announcement',
      modules: { toolbar: [['bold', 'italic'], [{ list: 'bullet' }]] },
    })
    quill.root.setAttribute('aria-label', 'Announcement editor')
    quill.root.setAttribute('role', 'textbox')
    quill.setText('Hello team\n')
    const read = () => {
      setText(quill.getText().replace(/\n$/, ''))
      setBold(quill.getContents().ops.filter((op) => op.attributes && op.attributes.bold).length)
    }
    quill.on('text-change', read)
    read()
    return () => {
      quill.off('text-change', read)
      host.current.previousSibling?.remove() // the toolbar Quill put before it
    }
  }, [])
  return (
    <>
      <h1>Announcement</h1>
      <div className="editor">
        <div ref={host} />
      </div>
      <pre className="md" aria-label="Announcement text">{text}</pre>
      <p className="out">Bold runs: {bold}</p>
    </>
  )
}
