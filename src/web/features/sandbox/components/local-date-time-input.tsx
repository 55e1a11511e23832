import { TextInput, type TextInputProps } from '@mantine/core';

type Props = Omit<TextInputProps, 'type' | 'onChange'> & { onChange: (value: string) => void };

/** A date and time in the browser's zone, as the `datetime-local` text that `local-date-time.ts` reads. */
export function LocalDateTimeInput({ onChange, ...props }: Props) {
  return (
    <TextInput {...props} type="datetime-local" onChange={(event) => onChange(event.currentTarget.value)} />
  );
}

/** A day without a time, as the `date` text ('YYYY-MM-DD') that `local-date-time.ts` reads. */
export function LocalDateInput({ onChange, ...props }: Props) {
  return <TextInput {...props} type="date" onChange={(event) => onChange(event.currentTarget.value)} />;
}
