import { useState } from 'react'
import Select from 'react-select'

const flavours = [
  { value: 'chocolate', label: 'Chocolate' },
  { value: 'strawberry', label: 'Strawberry' },
  { value: 'vanilla', label: 'Vanilla' },
  { value: 'pistachio', label: 'Pistachio' },
]
const toppings = [
  { value: 'nuts', label: 'Nuts' },
  { value: 'sprinkles', label: 'Sprinkles' },
  { value: 'sauce', label: 'Caramel sauce' },
  { value: 'cream', label: 'Whipped cream' },
]

export default function ReactSelectPage() {
  const [flavour, setFlavour] = useState(null)
  const [chosen, setChosen] = useState([toppings[0], toppings[1]])
  return (
    <>
      <h1>Ice cream</h1>
      <div style={{ maxWidth: 360 }}>
        <label htmlFor="flavour-input">Flavour</label>
        <Select inputId="flavour-input" options={flavours} value={flavour} onChange={setFlavour} isClearable />
        <p className="out">Flavour: {flavour ? flavour.label : 'none'}</p>
        <label htmlFor="toppings-input">Toppings</label>
        <Select inputId="toppings-input" isMulti options={toppings} value={chosen} onChange={setChosen} />
        <p className="out">Toppings: {chosen.length ? chosen.map((t) => t.label).join(', ') : 'none'}</p>
      </div>
    </>
  )
}
