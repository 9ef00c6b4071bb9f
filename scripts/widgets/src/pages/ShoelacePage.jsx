import { useRef, useState } from 'react'
import '@shoelace-style/shoelace/dist/themes/light.css'
import SlButton from '@shoelace-style/shoelace/dist/react/button/index.js'
import SlCheckbox from '@shoelace-style/shoelace/dist/react/checkbox/index.js'
import SlInput from '@shoelace-style/shoelace/dist/react/input/index.js'
import SlOption from '@shoelace-style/shoelace/dist/react/option/index.js'
import SlSelect from '@shoelace-style/shoelace/dist/react/select/index.js'

// Shoelace's components are web components (shadow DOM); the React
// wrappers it ships turn their sl-* events into props.
export default function ShoelacePage() {
  const [nickname, setNickname] = useState('')
  const [plan, setPlan] = useState('')
  const [updates, setUpdates] = useState(false)
  const [registered, setRegistered] = useState('not yet')
  const form = useRef(null)
  return (
    <>
      <h1>Join the beta</h1>
      <form ref={form} style={{ display: 'grid', gap: 12, maxWidth: 360 }} onSubmit={(e) => {
        e.preventDefault()
        setRegistered(`${nickname || '(no nickname)'} on the ${plan || 'no'} plan${updates ? ', with updates' : ''}`)
      }}>
        <SlInput label="Nickname" value={nickname} onSlInput={(e) => setNickname(e.target.value)} />
        <SlSelect label="Plan" value={plan} placeholder="Choose a plan" onSlChange={(e) => setPlan(e.target.value)}>
          <SlOption value="hobby">Hobby</SlOption>
          <SlOption value="team">Team</SlOption>
          <SlOption value="business">Business</SlOption>
        </SlSelect>
        <SlCheckbox checked={updates} onSlChange={(e) => setUpdates(e.target.checked)}>Send me product updates</SlCheckbox>
        <SlButton type="submit" variant="primary">Join</SlButton>
      </form>
      <p className="out">Registered: {registered}</p>
    </>
  )
}
