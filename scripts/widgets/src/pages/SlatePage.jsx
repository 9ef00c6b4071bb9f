import { useMemo, useState } from 'react'
import { createEditor, Node } from 'slate'
import { Editable, Slate, withReact } from 'slate-react'
import { withHistory } from 'slate-history'

const initial = [{ type: 'paragraph', children: [{ text: 'Agenda' }] }]

// A Slate editor as its docs set one up: the text typed is the editor's
// value, which the page reads out below it.
export default function SlatePage() {
  const editor = useMemo(() => withHistory(withReact(createEditor())), [])
  const [value, setValue] = useState(initial)
  const text = value.map((n) => Node.string(n)).join('\n')
  return (
    <>
      <h1>Meeting notes</h1>
      <Slate editor={editor} initialValue={initial} onChange={setValue}>
        <Editable className="editor" aria-label="Meeting notes editor" placeholder="Write the notes" />
      </Slate>
      <p className="out">Paragraphs: {value.length}</p>
      <pre className="md" aria-label="Notes text">{text}</pre>
      <p className="out">Words: {text.split(/\s+/).filter(Boolean).length}</p>
    </>
  )
}
