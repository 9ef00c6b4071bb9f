import { useState } from 'react'
import { toast } from 'sonner'

const start = ['Lunch on Friday?', 'Invoice #2231', 'Your build passed']

export default function ToastsPage() {
  const [messages, setMessages] = useState(start)
  const [saved, setSaved] = useState('no')
  const archive = (m) => {
    setMessages((xs) => xs.filter((x) => x !== m))
    toast('Message archived', {
      description: m,
      duration: 30000,
      action: { label: 'Undo', onClick: () => setMessages((xs) => (xs.includes(m) ? xs : [...xs, m])) },
    })
  }
  const save = () => {
    toast.promise(new Promise((resolve) => setTimeout(resolve, 600)), {
      loading: 'Saving settings…',
      success: () => {
        setSaved('yes')
        return 'Settings saved'
      },
      error: 'Could not save',
    })
  }
  return (
    <>
      <h1>Inbox</h1>
      <p className="out">Inbox: {messages.length} messages</p>
      <ul>
        {messages.map((m) => (
          <li key={m}>{m} <button type="button" aria-label={`Archive ${m}`} onClick={() => archive(m)}>Archive</button></li>
        ))}
      </ul>
      <button type="button" onClick={save}>Save settings</button>
      <p className="out">Settings saved: {saved}</p>
    </>
  )
}
