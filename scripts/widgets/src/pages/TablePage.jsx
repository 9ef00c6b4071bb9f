import { useState } from 'react'
import {
  columnFilteringFeature,
  createColumnHelper,
  createFilteredRowModel,
  createSortedRowModel,
  filterFn_includesString,
  globalFilteringFeature,
  rowSortingFeature,
  sortFn_alphanumeric,
  tableFeatures,
  useTable,
} from '@tanstack/react-table'

const features = tableFeatures({
  columnFilteringFeature,
  globalFilteringFeature,
  filteredRowModel: createFilteredRowModel(),
  filterFns: { includesString: filterFn_includesString },
  rowSortingFeature,
  sortedRowModel: createSortedRowModel(),
  sortFns: { alphanumeric: sortFn_alphanumeric },
})

const helper = createColumnHelper()
const columns = helper.columns([
  helper.accessor('name', { header: 'Name' }),
  helper.accessor('age', { header: 'Age' }),
  helper.accessor('team', { header: 'Team' }),
])

const people = [
  { name: 'Ada Lovelace', age: 36, team: 'Engines' },
  { name: 'Alan Turing', age: 41, team: 'Codes' },
  { name: 'Grace Hopper', age: 85, team: 'Compilers' },
  { name: 'Katherine Johnson', age: 101, team: 'Orbits' },
  { name: 'Linus Torvalds', age: 54, team: 'Kernels' },
  { name: 'Margaret Hamilton', age: 38, team: 'Orbits' },
  { name: 'Dennis Ritchie', age: 70, team: 'Compilers' },
  { name: 'Barbara Liskov', age: 84, team: 'Codes' },
]

export default function TablePage() {
  const [data] = useState(people)
  const [sorting, setSorting] = useState([])
  const [globalFilter, setGlobalFilter] = useState('')
  const table = useTable({
    features,
    columns,
    data,
    state: { sorting, globalFilter },
    onSortingChange: setSorting,
    onGlobalFilterChange: setGlobalFilter,
    globalFilterFn: 'includesString',
  })
  const rows = table.getRowModel().rows
  const sortText = sorting.length ? `${sorting[0].id} ${sorting[0].desc ? 'descending' : 'ascending'}` : 'none'
  return (
    <>
      <h1>People</h1>
      <label>Search people <input value={globalFilter} onChange={(e) => setGlobalFilter(e.target.value)} /></label>
      <table style={{ marginTop: 12, borderCollapse: 'collapse' }}>
        <thead>
          {table.getHeaderGroups().map((group) => (
            <tr key={group.id}>
              {group.headers.map((header) => (
                <th key={header.id} aria-sort={header.column.getIsSorted() ? (header.column.getIsSorted() === 'asc' ? 'ascending' : 'descending') : 'none'}>
                  <button type="button" onClick={header.column.getToggleSortingHandler()}>
                    <table.FlexRender header={header} />
                  </button>
                </th>
              ))}
            </tr>
          ))}
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.id}>
              {row.getAllCells().map((cell) => (
                <td key={cell.id} style={{ padding: '4px 12px' }}><table.FlexRender cell={cell} /></td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      <p className="out">Showing {rows.length} of {data.length} people, sorted by {sortText}</p>
      <p className="out">First row: {rows[0] ? rows[0].original.name : 'none'}</p>
    </>
  )
}
