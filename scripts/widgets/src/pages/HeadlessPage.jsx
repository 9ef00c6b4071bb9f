import { useState } from 'react'
import { Combobox, ComboboxInput, ComboboxOption, ComboboxOptions, Field, Label, Listbox, ListboxButton, ListboxOption, ListboxOptions } from '@headlessui/react'

const people = [
  { id: 1, name: 'Tom Cook' },
  { id: 2, name: 'Wade Cooper' },
  { id: 3, name: 'Tanya Fox' },
  { id: 4, name: 'Arlene Mccoy' },
  { id: 5, name: 'Devon Webb' },
]

const statuses = ['Backlog', 'In progress', 'In review', 'Done']

function Assignee() {
  const [selected, setSelected] = useState(null)
  const [query, setQuery] = useState('')
  const filtered = query === '' ? people : people.filter((p) => p.name.toLowerCase().includes(query.toLowerCase()))
  return (
    <div className="card">
      <Field>
        <Label>Assignee</Label>
        <Combobox value={selected} onChange={setSelected} onClose={() => setQuery('')}>
          <ComboboxInput displayValue={(p) => p?.name ?? ''} onChange={(e) => setQuery(e.target.value)} />
          <ComboboxOptions anchor="bottom start" className="hl-options">
            {filtered.map((p) => (
              <ComboboxOption key={p.id} value={p}>{p.name}</ComboboxOption>
            ))}
          </ComboboxOptions>
        </Combobox>
      </Field>
      <p className="out">Assignee: {selected ? selected.name : 'nobody'}</p>
    </div>
  )
}

function Status() {
  const [status, setStatus] = useState(statuses[0])
  return (
    <div className="card">
      <Field>
        <Label>Status</Label>
        <Listbox value={status} onChange={setStatus}>
          <ListboxButton>{status}</ListboxButton>
          <ListboxOptions anchor="bottom start" className="hl-options">
            {statuses.map((s) => (
              <ListboxOption key={s} value={s}>{s}</ListboxOption>
            ))}
          </ListboxOptions>
        </Listbox>
      </Field>
      <p className="out">Status: {status}</p>
    </div>
  )
}

export default function HeadlessPage() {
  return (
    <>
      <h1>Headless UI</h1>
      <div className="row">
        <Assignee />
        <Status />
      </div>
    </>
  )
}
