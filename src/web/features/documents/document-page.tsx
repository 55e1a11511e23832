import { Alert, Container, Loader, Typography } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import Markdown from 'react-markdown';
import remarkGfm from 'remark-gfm';
import { getText } from '../../lib/api-client.ts';

export type DocumentName = 'privacy' | 'terms' | 'legal' | 'changelog' | 'documentation';

/** Renders one of the markdown documents served from content/. */
export function DocumentPage({ name }: { name: DocumentName }) {
  const document = useQuery({ queryKey: ['content', name], queryFn: () => getText(`/content/${name}.md`) });
  return (
    <Container size="md" py="xl">
      {document.isPending && <Loader role="status" aria-label="Loading document" />}
      {document.isError && (
        <Alert color="red" title="This page could not be loaded">
          Please check your connection and reload the page.
        </Alert>
      )}
      {document.data && (
        <Typography>
          <article className="markdown-document">
            <Markdown remarkPlugins={[remarkGfm]}>{document.data}</Markdown>
          </article>
        </Typography>
      )}
    </Container>
  );
}
