import { Table } from '@mantine/core';
import type { CurrentUser } from '#shared/api/current-user.schema.ts';
import { SectionCard } from '../../../components/section-card.tsx';

/** The profile's personal data: name, e-mail and the provider the user signs in with. */
export function PersonalData({ user }: { user: CurrentUser }) {
  const rows: [string, string][] = [
    ['Name', user.name.displayName],
    ['E-mail', user.email || '—'],
    ['Login provider', user.googleId ? 'Google' : 'Facebook'],
  ];
  return (
    <SectionCard title="Personal Data">
      <Table variant="vertical" withTableBorder={false}>
        <Table.Tbody>
          {rows.map(([label, value]) => (
            <Table.Tr key={label}>
              <Table.Th w={160}>{label}</Table.Th>
              <Table.Td style={{ overflowWrap: 'anywhere' }}>{value}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </SectionCard>
  );
}
