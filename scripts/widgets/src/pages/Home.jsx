import { Link } from 'react-router'

const pages = [
  ['/signin', 'Sign in'],
  ['/editors/lexical', 'Lexical editor'],
  ['/editors/tiptap', 'TipTap editor'],
  ['/editors/codemirror', 'CodeMirror editor'],
  ['/editors/monaco', 'Monaco editor'],
  ['/editors/slate', 'Slate editor'],
  ['/editors/quill', 'Quill editor'],
  ['/radix', 'Radix primitives'],
  ['/mui', 'MUI pickers'],
  ['/headless', 'Headless UI'],
  ['/aria', 'React Aria'],
  ['/react-select', 'react-select'],
  ['/grid', 'AG Grid'],
  ['/table', 'TanStack Table'],
  ['/virtual', 'Long list'],
  ['/sortable', 'Sortable tasks'],
  ['/form', 'Sign-up form'],
  ['/toasts', 'Inbox'],
  ['/pricing', 'Pricing'],
  ['/web-components', 'Web components'],
  ['/frames', 'Embedded forms'],
  ['/chart', 'Sales chart'],
]

export default function Home() {
  return (
    <>
      <h1>Widget lab</h1>
      <p>Press ? anywhere for the keyboard shortcuts.</p>
      <ul className="links">
        {pages.map(([to, name]) => (
          <li key={to}><Link to={to}>{name}</Link></li>
        ))}
      </ul>
    </>
  )
}
