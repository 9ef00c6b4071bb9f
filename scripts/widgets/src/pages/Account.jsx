import { useState } from 'react'
import { Link, useNavigate } from 'react-router'
import { useAuth } from '../auth.jsx'

// A sign-in form: any email with any password signs in (there is no
// server), as a demo account does.
export function SignIn() {
  const { user, signIn, signOut } = useAuth()
  const navigate = useNavigate()
  const [email, setEmail] = useState('')
  const [password, setPassword] = useState('')
  const [error, setError] = useState('')
  if (user) {
    return (
      <>
        <h1>Sign in</h1>
        <p>You are signed in as {user}.</p>
        <button type="button" onClick={signOut}>Sign out</button>
      </>
    )
  }
  const submit = (e) => {
    e.preventDefault()
    if (!email) return setError('Enter your email')
    if (!password) return setError('Enter your password')
    signIn(email)
    navigate('/dashboard')
  }
  return (
    <>
      <h1>Sign in</h1>
      <form onSubmit={submit} noValidate style={{ display: 'grid', gap: 8, maxWidth: 320 }}>
        <label>Email <input type="email" value={email} onChange={(e) => setEmail(e.target.value)} /></label>
        <label>Password <input type="password" value={password} onChange={(e) => setPassword(e.target.value)} /></label>
        {error && <p className="error" role="alert">{error}</p>}
        <button type="submit">Sign in</button>
      </form>
    </>
  )
}

export function Dashboard() {
  const { user } = useAuth()
  return (
    <>
      <h1>Dashboard</h1>
      <p className="out">Welcome back, {user}</p>
      <section aria-label="Builds">
        <h2>Builds</h2>
        <p>The latest tests passed: 128 of 128, in 3 minutes.</p>
      </section>
      <section aria-label="Account">
        <h2>Account</h2>
        <ul>
          <li><Link to="/admin">Admin</Link></li>
          <li><Link to="/settings/password">Change your password here</Link></li>
        </ul>
        <p>Press ? to see the keyboard shortcuts.</p>
      </section>
    </>
  )
}

export function Admin() {
  return (
    <>
      <h1>Admin</h1>
      <p>Admin tools: 3 users, 2 teams.</p>
      <p>You are an admin of both teams.</p>
      <ul>
        <li>ada@example.com (Admin)</li>
        <li>grace@example.com</li>
        <li>linus@example.com</li>
      </ul>
    </>
  )
}

export function PasswordSettings() {
  const [saved, setSaved] = useState(false)
  return (
    <>
      <h1>Password settings</h1>
      <p>Change your password here. A good password is long; a short word is not one.</p>
      <button type="button" onClick={() => setSaved(true)}>Send me a reset link</button>
      {saved && <p className="out">A reset link is on its way</p>}
    </>
  )
}
