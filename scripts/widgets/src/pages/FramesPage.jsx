import { useEffect, useState } from 'react'

// Two copies of a partner's newsletter form: one served from this origin,
// one from another (the test server's second origin, from /api/config).
export default function FramesPage() {
  const [cross, setCross] = useState(null)
  const [same, setSame] = useState('nobody')
  const [partner, setPartner] = useState('nobody')
  useEffect(() => {
    fetch('/api/config').then((r) => r.json()).then((c) => setCross(c.crossOrigin)).catch(() => setCross(''))
    const onMessage = (e) => {
      if (e.data?.kind !== 'newsletter') return
      if (e.origin === location.origin) setSame(e.data.email)
      else setPartner(e.data.email)
    }
    window.addEventListener('message', onMessage)
    return () => window.removeEventListener('message', onMessage)
  }, [])
  return (
    <>
      <h1>Embedded forms</h1>
      <div className="row">
        <div className="card">
          <h2>Our newsletter</h2>
          <iframe title="Our newsletter" src="/frame-form.html" width="320" height="170" />
          <p className="out">Our newsletter: {same}</p>
        </div>
        <div className="card">
          <h2>Partner newsletter</h2>
          {cross ? <iframe title="Partner newsletter" src={`${cross}/frame-form.html`} width="320" height="170" /> : <p>Loading the partner's form…</p>}
          <p className="out">Partner newsletter: {partner}</p>
        </div>
      </div>
    </>
  )
}
