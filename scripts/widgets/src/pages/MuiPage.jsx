import { useState } from 'react'
import Autocomplete from '@mui/material/Autocomplete'
import TextField from '@mui/material/TextField'
import Stack from '@mui/material/Stack'
import { LocalizationProvider } from '@mui/x-date-pickers/LocalizationProvider'
import { AdapterDayjs } from '@mui/x-date-pickers/AdapterDayjs'
import { DatePicker } from '@mui/x-date-pickers/DatePicker'
import dayjs from 'dayjs'

const films = [
  { label: 'The Godfather', year: 1972 },
  { label: 'Inception', year: 2010 },
  { label: 'Interstellar', year: 2014 },
  { label: 'Into the Wild', year: 2007 },
  { label: 'Spirited Away', year: 2001 },
  { label: 'The Matrix', year: 1999 },
  { label: 'Amélie', year: 2001 },
]

export default function MuiPage() {
  const [film, setFilm] = useState(null)
  const [date, setDate] = useState(null)
  return (
    <>
      <h1>MUI pickers</h1>
      <Stack spacing={3} sx={{ maxWidth: 360 }}>
        <div>
          <Autocomplete
            disablePortal
            options={films}
            value={film}
            onChange={(_, v) => setFilm(v)}
            renderInput={(params) => <TextField {...params} label="Movie" />}
          />
          <p className="out">Selected movie: {film ? `${film.label} (${film.year})` : 'none'}</p>
        </div>
        <LocalizationProvider dateAdapter={AdapterDayjs}>
          <div>
            <DatePicker
              label="Start date"
              value={date}
              onChange={setDate}
              referenceDate={dayjs('2025-03-10')}
            />
            <p className="out">Start date: {date && date.isValid() ? date.format('YYYY-MM-DD') : 'none'}</p>
          </div>
        </LocalizationProvider>
      </Stack>
    </>
  )
}
