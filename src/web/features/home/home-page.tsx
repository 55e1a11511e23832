import {
  Badge,
  Button,
  Card,
  Container,
  Group,
  List,
  SimpleGrid,
  Stack,
  Text,
  ThemeIcon,
  Title,
} from '@mantine/core';
import { IconBolt, IconCalendarEvent, IconCheck, IconLock, IconRefresh, IconTags } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { trackConversion } from '../../lib/analytics.ts';
import { paths } from '../../lib/paths.ts';
import { SyncIllustration } from './sync-illustration.tsx';

export function HomePage() {
  return (
    <>
      <Hero />
      <HowItWorks />
      <Features />
      <Pricing />
    </>
  );
}

function Hero() {
  return (
    <Container size="lg" py={{ base: 48, sm: 80 }}>
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing={48} style={{ alignItems: 'center' }}>
        <Stack gap="lg">
          <Badge variant="light" size="lg" h="auto" py={4} styles={{ label: { whiteSpace: 'normal' } }}>
            Todoist × Google Calendar · Microsoft 365
          </Badge>
          <Title order={1} fz={{ base: 34, sm: 52 }} lh={1.1}>
            Your Todoist tasks, timeboxed on your calendar.
          </Title>
          <Text size="xl" c="dimmed">
            Near-instant full sync in both directions: tasks with a timebox label become calendar events, and
            new calendar events become tasks. We never read or save the contents of your tasks or events.
          </Text>
          <Group>
            <Button
              component={Link}
              to={paths.signup}
              size="lg"
              onClick={() => trackConversion('sign_up_click', { placement: 'hero' })}
            >
              Try for free
            </Button>
            <Button component={Link} to={paths.howItWorks} size="lg" variant="default">
              How it works
            </Button>
          </Group>
          <Text size="sm" c="dimmed">
            14 days free, no credit card.
          </Text>
        </Stack>
        <SyncIllustration />
      </SimpleGrid>
    </Container>
  );
}

const steps = [
  {
    title: 'Label a task with a timebox',
    body: 'Give a Todoist task a due time and a label such as @30Minutes, @60_min or @1_h. Each label stands for a duration you choose.',
  },
  {
    title: 'See it as a block of time',
    body: 'The task appears on your calendar at its due time, exactly as long as its timebox, in the colour or category you picked.',
  },
  {
    title: 'Plan on either side',
    body: 'Move or resize the event and the task follows. Add an event to your calendar and it becomes a task. Complete a task and the event is marked or removed.',
  },
];

function HowItWorks() {
  return (
    <Container size="lg" py={64} id="howitworks" component="section" aria-labelledby="howitworks-title">
      <Title order={2} id="howitworks-title" mb="xl">
        How it works
      </Title>
      <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="lg">
        {steps.map((step, index) => (
          <Card key={step.title} withBorder padding="lg">
            <ThemeIcon size={36} radius="xl" mb="md">
              <Text fw={700}>{index + 1}</Text>
            </ThemeIcon>
            <Title order={3} size="h4" mb="xs">
              {step.title}
            </Title>
            <Text c="dimmed">{step.body}</Text>
          </Card>
        ))}
      </SimpleGrid>
    </Container>
  );
}

const features: { icon: ReactNode; title: string; body: string }[] = [
  {
    icon: <IconBolt />,
    title: 'Near-instant full sync',
    body: 'Changes travel within seconds, in both directions, without duplicates.',
  },
  {
    icon: <IconTags />,
    title: 'Timeboxes your way',
    body: 'Durations from labels, or Todoist’s own duration field with Premium or Business.',
  },
  {
    icon: <IconCalendarEvent />,
    title: 'Google or Microsoft 365',
    body: 'Pick a calendar, an event colour or category, reminders and private events.',
  },
  {
    icon: <IconLock />,
    title: 'Private by design',
    body: 'We do not read or save the text of your tasks or events. Access tokens are encrypted.',
  },
];

function Features() {
  return (
    <Container size="lg" py={64} component="section" aria-labelledby="features-title">
      <Title order={2} id="features-title" mb="xl">
        Why Timeboxer
      </Title>
      <SimpleGrid cols={{ base: 1, sm: 2, md: 4 }} spacing="lg">
        {features.map((feature) => (
          <Card key={feature.title} withBorder padding="lg">
            <ThemeIcon size={40} variant="light" mb="md">
              {feature.icon}
            </ThemeIcon>
            <Title order={3} size="h5" mb="xs">
              {feature.title}
            </Title>
            <Text size="sm" c="dimmed">
              {feature.body}
            </Text>
          </Card>
        ))}
      </SimpleGrid>
    </Container>
  );
}

const plans = [
  { key: 'trial', name: 'Free trial', price: '$0', period: 'for 14 days', note: 'No credit card needed' },
  { key: 'monthly', name: 'Monthly', price: '$3', period: 'per month', note: 'Cancel any time' },
  { key: 'yearly', name: 'Yearly', price: '$24', period: 'per year', note: 'Save 33%' },
];

function Pricing() {
  return (
    <Container size="lg" py={64} id="pricing" component="section" aria-labelledby="pricing-title">
      <Title order={2} id="pricing-title" mb="xl">
        Pricing
      </Title>
      <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="lg">
        {plans.map((plan) => (
          <Card key={plan.name} withBorder padding="xl">
            <Stack gap="sm">
              <Group justify="space-between">
                <Title order={3} size="h4">
                  {plan.name}
                </Title>
                {plan.key === 'yearly' && <Badge color="teal.9">Save 33%</Badge>}
              </Group>
              <Group gap={6} align="baseline">
                <Text fz={36} fw={800}>
                  {plan.price}
                </Text>
                <Text c="dimmed">{plan.period}</Text>
              </Group>
              <List size="sm" spacing={4} icon={<IconCheck size={16} aria-hidden />}>
                <List.Item>{plan.note}</List.Item>
                <List.Item>Full two-way sync</List.Item>
                <List.Item icon={<IconRefresh size={16} aria-hidden />}>All features included</List.Item>
              </List>
              <Button
                component={Link}
                to={paths.signup}
                mt="sm"
                onClick={() => trackConversion('sign_up_click', { placement: `pricing-${plan.key}` })}
              >
                Try for free
              </Button>
            </Stack>
          </Card>
        ))}
      </SimpleGrid>
    </Container>
  );
}
