import { createContext, useContext, useState } from 'react'

// The signed-in user, kept in localStorage as a real app keeps its session.
const AuthContext = createContext(null)

export function AuthProvider({ children }) {
  const [user, setUser] = useState(() => localStorage.getItem('lab.user'))
  const signIn = (email) => {
    localStorage.setItem('lab.user', email)
    setUser(email)
  }
  const signOut = () => {
    localStorage.removeItem('lab.user')
    setUser(null)
  }
  return <AuthContext.Provider value={{ user, signIn, signOut }}>{children}</AuthContext.Provider>
}

export function useAuth() {
  return useContext(AuthContext)
}
