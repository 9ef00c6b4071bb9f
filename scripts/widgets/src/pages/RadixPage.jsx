import { useState } from 'react'
import * as Dialog from '@radix-ui/react-dialog'
import * as DropdownMenu from '@radix-ui/react-dropdown-menu'
import * as Select from '@radix-ui/react-select'
import * as Tabs from '@radix-ui/react-tabs'
import * as Tooltip from '@radix-ui/react-tooltip'
import * as Popover from '@radix-ui/react-popover'

function ProfileDialog() {
  const [name, setName] = useState('Pedro Duarte')
  const [draft, setDraft] = useState(name)
  const [open, setOpen] = useState(false)
  return (
    <div className="card">
      <h2>Profile</h2>
      <p className="out">Profile name: {name}</p>
      <Dialog.Root open={open} onOpenChange={(o) => { setOpen(o); if (o) setDraft(name) }}>
        <Dialog.Trigger asChild>
          <button type="button">Edit profile</button>
        </Dialog.Trigger>
        <Dialog.Portal>
          <Dialog.Overlay className="overlay" />
          <Dialog.Content className="dialog">
            <Dialog.Title>Edit profile</Dialog.Title>
            <Dialog.Description>Make changes to your profile here.</Dialog.Description>
            <label>Name <input value={draft} onChange={(e) => setDraft(e.target.value)} /></label>
            <div style={{ marginTop: 12, display: 'flex', gap: 8 }}>
              <button type="button" onClick={() => { setName(draft); setOpen(false) }}>Save changes</button>
              <Dialog.Close asChild><button type="button">Cancel</button></Dialog.Close>
            </div>
          </Dialog.Content>
        </Dialog.Portal>
      </Dialog.Root>
    </div>
  )
}

function OptionsMenu() {
  const [last, setLast] = useState('none')
  const [bookmarks, setBookmarks] = useState(false)
  return (
    <div className="card">
      <h2>Document</h2>
      <p className="out">Last action: {last}</p>
      <p className="out">Bookmarks bar: {bookmarks ? 'shown' : 'hidden'}</p>
      <DropdownMenu.Root>
        <DropdownMenu.Trigger asChild>
          <button type="button">Options</button>
        </DropdownMenu.Trigger>
        <DropdownMenu.Portal>
          <DropdownMenu.Content className="menu" sideOffset={4}>
            <DropdownMenu.Item onSelect={() => setLast('New tab')}>New tab</DropdownMenu.Item>
            <DropdownMenu.Item onSelect={() => setLast('Duplicate')}>Duplicate</DropdownMenu.Item>
            <DropdownMenu.Item onSelect={() => setLast('Archive')}>Archive</DropdownMenu.Item>
            <DropdownMenu.Separator />
            <DropdownMenu.CheckboxItem checked={bookmarks} onCheckedChange={setBookmarks}>
              Show bookmarks
            </DropdownMenu.CheckboxItem>
          </DropdownMenu.Content>
        </DropdownMenu.Portal>
      </DropdownMenu.Root>
    </div>
  )
}

function FruitSelect() {
  const [fruit, setFruit] = useState('')
  return (
    <div className="card">
      <h2>Fruit</h2>
      <p className="out">Selected fruit: {fruit || 'none'}</p>
      <Select.Root value={fruit} onValueChange={setFruit}>
        <Select.Trigger aria-label="Fruit">
          <Select.Value placeholder="Pick a fruit" />
          <Select.Icon> ▾</Select.Icon>
        </Select.Trigger>
        <Select.Portal>
          <Select.Content className="select-content" position="popper" sideOffset={4}>
            <Select.Viewport>
              {['Apple', 'Banana', 'Blueberry', 'Grapes', 'Pineapple'].map((f) => (
                <Select.Item key={f} value={f}>
                  <Select.ItemText>{f}</Select.ItemText>
                </Select.Item>
              ))}
            </Select.Viewport>
          </Select.Content>
        </Select.Portal>
      </Select.Root>
    </div>
  )
}

function SettingsTabs() {
  const [tab, setTab] = useState('account')
  return (
    <div className="card">
      <h2>Settings</h2>
      <p className="out">Active tab: {tab}</p>
      <Tabs.Root value={tab} onValueChange={setTab}>
        <Tabs.List className="tabs-list" aria-label="Manage your account">
          <Tabs.Trigger value="account">Account</Tabs.Trigger>
          <Tabs.Trigger value="password">Password</Tabs.Trigger>
        </Tabs.List>
        <Tabs.Content value="account"><p>Make changes to your account here.</p></Tabs.Content>
        <Tabs.Content value="password"><p>Change your password here. After saving, you will be logged out.</p></Tabs.Content>
      </Tabs.Root>
    </div>
  )
}

function LibraryTooltip() {
  const [added, setAdded] = useState(false)
  return (
    <div className="card">
      <h2>Library</h2>
      <p className="out">In library: {added ? 'yes' : 'no'}</p>
      <Tooltip.Provider delayDuration={200}>
        <Tooltip.Root>
          <Tooltip.Trigger asChild>
            <button type="button" aria-label="Add" onClick={() => setAdded(true)}>+</button>
          </Tooltip.Trigger>
          <Tooltip.Portal>
            <Tooltip.Content className="tooltip" sideOffset={5}>Add to library</Tooltip.Content>
          </Tooltip.Portal>
        </Tooltip.Root>
      </Tooltip.Provider>
    </div>
  )
}

function DimensionsPopover() {
  const [width, setWidth] = useState('100%')
  return (
    <div className="card">
      <h2>Layout</h2>
      <p className="out">Width: {width}</p>
      <Popover.Root>
        <Popover.Trigger asChild>
          <button type="button">Dimensions</button>
        </Popover.Trigger>
        <Popover.Portal>
          <Popover.Content className="popover" sideOffset={5}>
            <p>Dimensions</p>
            <label>Width <input value={width} onChange={(e) => setWidth(e.target.value)} /></label>
            <Popover.Close aria-label="Close">×</Popover.Close>
          </Popover.Content>
        </Popover.Portal>
      </Popover.Root>
    </div>
  )
}

export default function RadixPage() {
  return (
    <>
      <h1>Radix primitives</h1>
      <div className="row">
        <ProfileDialog />
        <OptionsMenu />
        <FruitSelect />
        <SettingsTabs />
        <LibraryTooltip />
        <DimensionsPopover />
      </div>
    </>
  )
}
