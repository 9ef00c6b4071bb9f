import * as Dialog from '@radix-ui/react-dialog'

const shortcuts = [
  ['?', 'Show the keyboard shortcuts'],
  ['Esc', 'Close a dialog'],
]

// The app-wide `?` shortcut opens this list (a Radix Dialog).
export default function ShortcutsDialog({ open, onOpenChange }) {
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="overlay" />
        <Dialog.Content className="dialog">
          <Dialog.Title>Keyboard shortcuts</Dialog.Title>
          <Dialog.Description>Keys that work on every page.</Dialog.Description>
          <table>
            <tbody>
              {shortcuts.map(([key, what]) => (
                <tr key={key}><td><kbd>{key}</kbd></td><td>{what}</td></tr>
              ))}
            </tbody>
          </table>
          <Dialog.Close asChild>
            <button type="button">Close</button>
          </Dialog.Close>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  )
}
