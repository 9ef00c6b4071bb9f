import { useMemo, useRef, useState } from 'react'
import { AllCommunityModule, ModuleRegistry } from 'ag-grid-community'
import { AgGridReact } from 'ag-grid-react'

ModuleRegistry.registerModules([AllCommunityModule])

const initialRows = [
  { make: 'Tesla', model: 'Model Y', price: 64950, electric: true },
  { make: 'Ford', model: 'F-Series', price: 33850, electric: false },
  { make: 'Toyota', model: 'Corolla', price: 29600, electric: false },
  { make: 'Mercedes', model: 'EQA', price: 48890, electric: true },
  { make: 'Fiat', model: '500', price: 15774, electric: false },
  { make: 'Nissan', model: 'Juke', price: 20675, electric: false },
]

export default function AgGridPage() {
  const grid = useRef(null)
  const [rowData] = useState(initialRows)
  const [changed, setChanged] = useState(new Set())
  const [selected, setSelected] = useState([])
  const [saved, setSaved] = useState('nothing yet')
  const [sort, setSort] = useState('none')
  const columnDefs = useMemo(() => [
    { field: 'make' },
    { field: 'model' },
    { field: 'price', editable: true, valueParser: (p) => Number(p.newValue) },
    { field: 'electric' },
  ], [])
  return (
    <>
      <h1>Cars</h1>
      <div style={{ height: 340, maxWidth: 900 }}>
        <AgGridReact
          ref={grid}
          rowData={rowData}
          columnDefs={columnDefs}
          rowSelection={{ mode: 'multiRow' }}
          onCellValueChanged={(e) => setChanged((s) => new Set(s).add(e.data.model))}
          onSelectionChanged={(e) => setSelected(e.api.getSelectedRows().map((r) => r.model))}
          onSortChanged={(e) => {
            const s = e.api.getColumnState().find((c) => c.sort)
            setSort(s ? `${s.colId} ${s.sort}` : 'none')
          }}
        />
      </div>
      <p className="out">Selected: {selected.length ? selected.join(', ') : 'none'}</p>
      <p className="out">Sorted by: {sort}</p>
      <button type="button" onClick={() => {
        const rows = []
        grid.current.api.forEachNode((n) => { if (changed.has(n.data.model)) rows.push(`${n.data.model} ${n.data.price}`) })
        setSaved(rows.length ? `${rows.length} row${rows.length > 1 ? 's' : ''} (${rows.join(', ')})` : 'no changes')
      }}>Save changes</button>
      <p className="out">Saved: {saved}</p>
    </>
  )
}
