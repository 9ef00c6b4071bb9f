import { useEffect, useRef, useState } from 'react'
import { basicSetup, EditorView } from 'codemirror'
import { javascript } from '@codemirror/lang-javascript'

export default function CodeMirrorPage() {
  const parent = useRef(null)
  const [doc, setDoc] = useState('')
  useEffect(() => {
    const view = new EditorView({
      doc: 'let total = 0\n',
      extensions: [
        basicSetup,
        javascript(),
        EditorView.contentAttributes.of({ 'aria-label': 'Script editor' }),
        EditorView.updateListener.of((u) => {
          if (u.docChanged) setDoc(u.state.doc.toString())
        }),
      ],
      parent: parent.current,
    })
    setDoc(view.state.doc.toString())
    return () => view.destroy()
  }, [])
  const lines = doc.split('\n')
  return (
    <>
      <h1>Script</h1>
      <div ref={parent} className="editor" />
      <p className="out">Lines: {lines.length}</p>
      <pre className="md" aria-label="Script text">{doc}</pre>
    </>
  )
}
