/** One message of a chat: what prompt templates render and chat endpoints take. */
export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}
