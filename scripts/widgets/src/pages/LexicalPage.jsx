import { useState } from 'react'
import { LexicalComposer } from '@lexical/react/LexicalComposer'
import { useLexicalComposerContext } from '@lexical/react/LexicalComposerContext'
import { RichTextPlugin } from '@lexical/react/LexicalRichTextPlugin'
import { ContentEditable } from '@lexical/react/LexicalContentEditable'
import { LexicalErrorBoundary } from '@lexical/react/LexicalErrorBoundary'
import { HistoryPlugin } from '@lexical/react/LexicalHistoryPlugin'
import { ListPlugin } from '@lexical/react/LexicalListPlugin'
import { LinkPlugin } from '@lexical/react/LexicalLinkPlugin'
import { OnChangePlugin } from '@lexical/react/LexicalOnChangePlugin'
import { MarkdownShortcutPlugin } from '@lexical/react/LexicalMarkdownShortcutPlugin'
import { $convertToMarkdownString, TRANSFORMERS } from '@lexical/markdown'
import { HeadingNode, QuoteNode } from '@lexical/rich-text'
import { ListItemNode, ListNode } from '@lexical/list'
import { CodeHighlightNode, CodeNode } from '@lexical/code'
import { AutoLinkNode, LinkNode } from '@lexical/link'
import { FORMAT_TEXT_COMMAND } from 'lexical'

// The nodes the markdown transformers create must be registered.
const config = {
  namespace: 'ReleaseNotes',
  nodes: [HeadingNode, QuoteNode, ListNode, ListItemNode, CodeNode, CodeHighlightNode, LinkNode, AutoLinkNode],
  onError(error) {
    throw error
  },
  theme: { text: { bold: 'bold' } },
}

function Toolbar() {
  const [editor] = useLexicalComposerContext()
  return (
    <div className="toolbar" role="toolbar" aria-label="Formatting">
      <button type="button" onClick={() => editor.dispatchCommand(FORMAT_TEXT_COMMAND, 'bold')}>Bold</button>
      <button type="button" onClick={() => editor.dispatchCommand(FORMAT_TEXT_COMMAND, 'italic')}>Italic</button>
    </div>
  )
}

export default function LexicalPage() {
  const [markdown, setMarkdown] = useState('')
  return (
    <>
      <h1>Release notes</h1>
      <p>Write the notes in Markdown: # for a heading, - for a list.</p>
      <LexicalComposer initialConfig={config}>
        <Toolbar />
        <RichTextPlugin
          contentEditable={
            <ContentEditable
              className="editor"
              aria-label="Release notes editor"
              aria-placeholder="Start writing…"
              placeholder={<div style={{ color: '#889', marginTop: -110, padding: 8, pointerEvents: 'none' }}>Start writing…</div>}
            />
          }
          ErrorBoundary={LexicalErrorBoundary}
        />
        <HistoryPlugin />
        <ListPlugin />
        <LinkPlugin />
        <MarkdownShortcutPlugin transformers={TRANSFORMERS} />
        <OnChangePlugin
          onChange={(editorState) => editorState.read(() => setMarkdown($convertToMarkdownString(TRANSFORMERS)))}
        />
      </LexicalComposer>
      <h2>Markdown</h2>
      <pre className="md" aria-label="Markdown output">{markdown}</pre>
    </>
  )
}
