import { TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useState } from 'react';

/** An e-mail address names an emulated account; the lists follow it once typing pauses. */
export function useAccountEmail(initial: string) {
  const [email, setEmail] = useState(initial);
  const [account] = useDebouncedValue(email.trim().toLowerCase(), 400);
  return { email, setEmail, account };
}

export function AccountEmailInput({
  label,
  value,
  onChange,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
}) {
  return (
    <TextInput
      label={label}
      type="email"
      size="sm"
      value={value}
      onChange={(event) => onChange(event.currentTarget.value)}
      mb="sm"
    />
  );
}
