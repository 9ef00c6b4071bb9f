import { useEffect, useRef, useState } from 'react'
import * as monaco from 'monaco-editor'
import editorWorker from 'monaco-editor/editor/editor.worker?worker'

// Monaco's workers, bundled by Vite (?worker). The editor worker does the
// diffing and word work; the language workers are not needed for the
// plain text this page edits.
self.MonacoEnvironment = {
  getWorker() {
    return new editorWorker()
  },
}

export default function MonacoPage() {
  const parent = useRef(null)
  const [value, setValue] = useState('')
  useEffect(() => {
    const editor = monaco.editor.create(parent.current, {
      value: 'SELECT name FROM users',
      language: 'sql',
      ariaLabel: 'Query editor',
      minimap: { enabled: false },
      automaticLayout: true,
    })
    setValue(editor.getValue())
    const sub = editor.onDidChangeModelContent(() => setValue(editor.getValue()))
    return () => {
      sub.dispose()
      editor.dispose()
    }
  }, [])
  return (
    <>
      <h1>Query</h1>
      <div ref={parent} style={{ height: 200, border: '1px solid #99a' }} />
      <p className="out">Query: {value}</p>
    </>
  )
}
