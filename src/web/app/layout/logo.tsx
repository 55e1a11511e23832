import { Group, Text, UnstyledButton } from '@mantine/core';
import { Link } from 'react-router';
import { PRODUCT_NAME } from '#shared/product.ts';
import { paths } from '../../lib/paths.ts';

export function Logo() {
  return (
    <UnstyledButton component={Link} to={paths.root} aria-label={`${PRODUCT_NAME} home`}>
      <Group gap={8} wrap="nowrap">
        <img src="/favicon.svg" alt="" width={28} height={28} />
        <Text fw={800} size="lg">
          {PRODUCT_NAME}
        </Text>
      </Group>
    </UnstyledButton>
  );
}
