import { useState } from 'react'

// The store's consent banner: fixed at the bottom of the page until the
// visitor decides, over the page's own buy bar.
function CookieBanner({ onDecide }) {
  return (
    <div className="cookies" role="dialog" aria-label="Cookie consent">
      <p>We use cookies to improve your experience. Choose which ones we may use.</p>
      <button type="button" onClick={() => onDecide('rejected')}>Reject all</button>
      <button type="button" onClick={() => onDecide('accepted')}>Accept all</button>
    </div>
  )
}

export default function PricingPage() {
  const [consent, setConsent] = useState(() => localStorage.getItem('lab.cookies'))
  const [cart, setCart] = useState(0)
  const decide = (c) => {
    localStorage.setItem('lab.cookies', c)
    setConsent(c)
  }
  return (
    <>
      <h1>Pricing</h1>
      <p>Pro plan: $12 a month, billed yearly.</p>
      <p className="out">Cookies: {consent ?? 'undecided'}</p>
      <p className="out">Cart: {cart} {cart === 1 ? 'item' : 'items'}</p>
      <div className="buybar">
        <button type="button" onClick={() => setCart((n) => n + 1)}>Buy the Pro plan</button>
      </div>
      {!consent && <CookieBanner onDecide={decide} />}
    </>
  )
}
