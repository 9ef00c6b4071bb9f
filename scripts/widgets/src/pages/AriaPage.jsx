import { useState } from 'react'
import { Button, Label, ListBox, ListBoxItem, NumberField, Group, Input, Popover, Select, SelectValue, Switch } from 'react-aria-components'

export default function AriaPage() {
  const [animal, setAnimal] = useState(null)
  const [lowPower, setLowPower] = useState(false)
  const [tickets, setTickets] = useState(1)
  return (
    <>
      <h1>React Aria</h1>
      <div className="row">
        <div className="card">
          <Select selectedKey={animal} onSelectionChange={setAnimal}>
            <Label>Favorite animal</Label>
            <Button>
              <SelectValue />
              <span aria-hidden="true"> ▾</span>
            </Button>
            <Popover className="ra-popover">
              <ListBox>
                <ListBoxItem id="aardvark">Aardvark</ListBoxItem>
                <ListBoxItem id="cat">Cat</ListBoxItem>
                <ListBoxItem id="dog">Dog</ListBoxItem>
                <ListBoxItem id="kangaroo">Kangaroo</ListBoxItem>
                <ListBoxItem id="panda">Panda</ListBoxItem>
                <ListBoxItem id="snake">Snake</ListBoxItem>
              </ListBox>
            </Popover>
          </Select>
          <p className="out">Animal: {animal ?? 'none'}</p>
        </div>
        <div className="card">
          <Switch className="ra-switch" isSelected={lowPower} onChange={setLowPower}>
            <div className="indicator" />
            Low power mode
          </Switch>
          <p className="out">Low power: {lowPower ? 'on' : 'off'}</p>
        </div>
        <div className="card">
          <NumberField value={tickets} onChange={setTickets} minValue={1} maxValue={8}>
            <Label>Tickets</Label>
            <Group>
              <Button slot="decrement">-</Button>
              <Input />
              <Button slot="increment">+</Button>
            </Group>
          </NumberField>
          <p className="out">Tickets: {tickets}</p>
        </div>
      </div>
    </>
  )
}
