import { useState } from 'react'
import { useForm } from 'react-hook-form'

export default function FormPage() {
  const { register, handleSubmit, formState: { errors } } = useForm({ mode: 'onSubmit' })
  const [submitted, setSubmitted] = useState(null)
  const onSubmit = (data) => setSubmitted(`${data.fullName} <${data.email}>, ${data.plan}`)
  return (
    <>
      <h1>Create your account</h1>
      <form onSubmit={handleSubmit(onSubmit)} noValidate style={{ display: 'grid', gap: 8, maxWidth: 360 }}>
        <label>Full name <input {...register('fullName', { required: 'Full name is required' })} aria-invalid={errors.fullName ? 'true' : 'false'} /></label>
        {errors.fullName && <p className="error" role="alert">{errors.fullName.message}</p>}
        <label>Work email <input type="email" {...register('email', {
          required: 'Email is required',
          pattern: { value: /^[^@\s]+@[^@\s]+\.[^@\s]+$/, message: 'Enter a valid email address' },
        })} aria-invalid={errors.email ? 'true' : 'false'} /></label>
        {errors.email && <p className="error" role="alert">{errors.email.message}</p>}
        <label>Team size <input type="number" {...register('size', { min: { value: 1, message: 'At least 1 person' }, max: { value: 500, message: 'At most 500 people' } })} /></label>
        {errors.size && <p className="error" role="alert">{errors.size.message}</p>}
        <label>Plan <select {...register('plan')}>
          <option value="free">Free</option>
          <option value="team">Team</option>
          <option value="enterprise">Enterprise</option>
        </select></label>
        <label><input type="checkbox" {...register('terms', { required: 'Accept the terms to continue' })} /> I accept the terms</label>
        {errors.terms && <p className="error" role="alert">{errors.terms.message}</p>}
        <button type="submit">Create account</button>
      </form>
      <p className="out">Submitted: {submitted ?? 'nothing yet'}</p>
    </>
  )
}
